"""A real SMTP server on a free local port (aiosmtpd, in a thread of the test process): the
mail tests receive what the service sends through Django's SMTP backend, as production's
``EMAIL_URL`` server would."""

from __future__ import annotations

import re
import socket
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Mailbox:
    """Every message the server accepted, parsed, in order."""

    messages: list[EmailMessage] = field(default_factory=list)
    envelopes: list[tuple[str, list[str]]] = field(default_factory=list)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = message_from_bytes(envelope.content, policy=policy.default)
        assert isinstance(message, EmailMessage)
        self.messages.append(message)
        self.envelopes.append((envelope.mail_from, list(envelope.rcpt_tos)))
        return "250 Message accepted for delivery"

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in self.messages if str(m["To"]).lower() == address.lower()]

    def last_code(self, address: str) -> str:
        """The six-digit code of the last message to ``address``."""
        (*_, message) = self.to(address)
        return code_in(message)


def text_of(message: EmailMessage) -> str:
    body = message.get_body(preferencelist=("plain",))
    assert body is not None
    return str(body.get_content())


def code_in(message: EmailMessage) -> str:
    found = re.findall(r"^\s+(\d{6})\s*$", text_of(message), re.M)
    assert len(found) == 1, text_of(message)
    return str(found[0])


def mailbox_start() -> tuple[Mailbox, Controller]:
    box = Mailbox()
    controller = Controller(box, hostname="127.0.0.1", port=free_port())
    controller.start()
    return box, controller
