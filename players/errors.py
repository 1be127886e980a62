"""The players app's refusals: one class per error, its code and status on the class."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from core.errors import Conflict, NotFound

# --- Quick play (players.services.matchmaking) ---------------------------------------------


class NoTicket(NotFound):
    """The caller has never asked for a table (GET), or has no ticket to cancel (DELETE)."""

    code = "no_ticket"
    default_detail = _("You have not asked for a table.")  # type: ignore[assignment]


class AlreadyQueued(Conflict):
    code = "already_queued"
    default_detail = _(  # type: ignore[assignment]
        "You are already waiting for a table; cancel that request to change it."
    )


class TicketPlaced(Conflict):
    code = "ticket_placed"
    default_detail = _(  # type: ignore[assignment]
        "You have been seated already; resign the match instead."
    )
