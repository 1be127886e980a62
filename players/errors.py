"""The players app's refusals: one class per error, its code and status on the class."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from core.errors import Conflict, InvalidInput


class UnknownPhrase(InvalidInput):
    """A ``phrase`` that is not one of ``GET /chat/phrases``."""

    code = "unknown_phrase"
    # Lazy, so the detail is in the caller's language (rendered as text by the handler).
    default_detail = _("That is not one of the quick-chat phrases.")  # type: ignore[assignment]


class ChatClosed(Conflict):
    """The match is over (for longer than the chat stays open after it) or was aborted."""

    code = "chat_closed"
    default_detail = _("This table's chat is closed.")  # type: ignore[assignment]
