"""Mail to players: the messages (English and Arabic) and how they leave.

A message is composed where its code is made, in the player's language, and handed to
``send_on_commit``: once the transaction that stored the code commits, the Celery task
``accounts.tasks.mail_send`` (on the push queue, whose workers already wait on other people's
servers) sends it through Django's mail backend. Sending waits on a mail server, so it never
runs inside a write transaction or in a web request; a transaction that rolls back sends
nothing. The backend is ``EMAIL_URL``'s SMTP server, or by default a file per message under
``var/mail/`` (settings, "Mail").
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import asdict, dataclass
from functools import partial
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Mail:
    to: str
    subject: str
    body: str
    kind: str  # what it is, for the log line: "verify_email", "password_reset"

    def as_task_kwargs(self) -> dict[str, Any]:
        return asdict(self)


def _minutes() -> int:
    return int(settings.EMAIL_CODE_TTL_MINUTES)


def verification_compose(*, to: str, name: str, code: str, language: str) -> Mail:
    """The message that confirms a new address: its code, in ``language``."""
    with translation.override(language):
        subject = _("Confirm your email address for Baloot")
        body = _(
            "Hello %(name)s,\n\n"
            "Your code to confirm this address for your Baloot account is:\n\n"
            "    %(code)s\n\n"
            "It works once, for %(minutes)s minutes. If you did not ask for it, ignore this "
            "message: the address will not be added.\n"
        ) % {"name": name, "code": code, "minutes": _minutes()}
    return Mail(to=to, subject=subject, body=body, kind="verify_email")


def reset_compose(*, to: str, name: str, username: str, code: str, language: str) -> Mail:
    """The message that lets ``username`` set a new password: its code, in ``language``."""
    with translation.override(language):
        subject = _("Reset your Baloot password")
        body = _(
            "Hello %(name)s,\n\n"
            "Your code to set a new password for the Baloot account %(username)s is:\n\n"
            "    %(code)s\n\n"
            "It works once, for %(minutes)s minutes. If you did not ask for it, ignore this "
            "message: your password stays as it is.\n"
        ) % {"name": name, "username": username, "code": code, "minutes": _minutes()}
    return Mail(to=to, subject=subject, body=body, kind="password_reset")


def replaced_compose(*, to: str, name: str, username: str, new: str, language: str) -> Mail:
    """The notice to the address a newly verified one replaced: a change made with a stolen
    token does not go unseen by the owner of the old address."""
    with translation.override(language):
        subject = _("Your Baloot email address was changed")
        body = _(
            "Hello %(name)s,\n\n"
            "The email address of the Baloot account %(username)s is now %(new)s; this "
            "address is no longer used for it.\n\n"
            "If you did not make this change, someone else may have signed in to your "
            "account.\n"
        ) % {"name": name, "username": username, "new": new}
    return Mail(to=to, subject=subject, body=body, kind="email_replaced")


# Set by accounts.apps (the task module imports this one, so it cannot be imported here).
_enqueuer: Callable[[Mail], None] | None = None


def enqueuer_register(enqueue: Callable[[Mail], None]) -> None:
    global _enqueuer
    _enqueuer = enqueue


def send_on_commit(mail: Mail) -> None:
    """Queue ``mail`` once the current transaction commits (at once outside one)."""
    transaction.on_commit(partial(_enqueue, mail))


def _enqueue(mail: Mail) -> None:
    if _enqueuer is None:  # pragma: no cover - AccountsConfig.ready registers it
        log.error("no mail enqueuer registered; %s mail to %s not sent", mail.kind, masked(mail.to))
        return
    try:
        _enqueuer(mail)
    except Exception as exc:  # a broker that refuses it: the player asks for a new code
        log.warning("%s mail to %s not queued (%s)", mail.kind, masked(mail.to), exc)


def deliver(mail: Mail) -> None:
    """Send ``mail`` now (the task's body): slow, network I/O; raises what the backend raises,
    so the task can retry."""
    EmailMessage(
        subject=mail.subject,
        body=mail.body,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[mail.to],
    ).send()
    # The code is in the message only, never in the log.
    log.info("%s mail to %s sent (%s)", mail.kind, masked(mail.to), _where())


def _where() -> str:
    backend = str(settings.EMAIL_BACKEND)
    if backend.endswith("filebased.EmailBackend"):
        return f"written under {settings.EMAIL_FILE_PATH}"
    if backend.endswith("smtp.EmailBackend"):
        return f"SMTP {settings.EMAIL_HOST}:{settings.EMAIL_PORT}"
    return backend.rsplit(".", 2)[-2]


def masked(address: str) -> str:
    """``a***@example.com``: enough to tell messages apart in a log, not to read an address."""
    local, _at, domain = address.partition("@")
    return f"{local[:1]}***@{domain}"
