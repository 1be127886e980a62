"""Quick play as the caller sees it: their latest ticket, how long it waited, its band."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from accounts.models import User
from core import clock
from players.models import Ticket, TicketStatus

# The band: how far apart, in ordinal points (mu - 3 sigma), the players of one table may be.
# It starts at BAND_BASE and widens by one point every BAND_STEP_SECONDS waited, up to
# BAND_MAX: a new player (ordinal 0) and a strong one (30) may meet after 135 s.
BAND_BASE = 3.0
BAND_STEP_SECONDS = 5.0
BAND_MAX = 30.0


def band_for(waited_seconds: float) -> float:
    """``min(3 + waited / 5, 30)`` ordinal points."""
    return min(BAND_BASE + max(waited_seconds, 0.0) / BAND_STEP_SECONDS, BAND_MAX)


def waited_seconds(ticket: Ticket, now: datetime | None = None) -> float:
    """How long the ticket waited: until now while waiting, else until placed or cancelled."""
    end = ticket.placed_at or ticket.cancelled_at
    if ticket.status == TicketStatus.WAITING or end is None:
        end = now or clock.now()
    return max((end - ticket.created_at).total_seconds(), 0.0)


def ticket_latest(user: User) -> Ticket | None:
    """The caller's most recent ticket, whatever its status."""
    return Ticket.objects.filter(user=user).order_by("-created_at", "-pk").first()


def ticket_data(ticket: Ticket, now: datetime | None = None) -> dict[str, Any]:
    """What ``GET /matchmaking`` shows (``players.api.matchmaking.TicketSerializer``)."""
    waited = waited_seconds(ticket, now)
    return {
        "status": ticket.status,
        "ruleset": ticket.ruleset,
        "turn_seconds": ticket.turn_seconds,
        "bots_after_seconds": ticket.bots_after_seconds,
        "created_at": ticket.created_at,
        "waited_seconds": int(waited),
        "band": round(band_for(waited), 2),
        "match_id": ticket.match_id,
        "placed_at": ticket.placed_at,
        "cancelled_at": ticket.cancelled_at,
    }
