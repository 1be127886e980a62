"""What a committed match needs next: a bot move now, or a deadline later.

Scheduling happens after commit and must never fail the request that made the move: if the
broker is unreachable the move is already safe in the database, and the periodic sweep
(``games.tasks.sweep_deadlines``) finds the turn by its ``deadline`` column.
"""

from __future__ import annotations

import logging
import random
from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING

from django.utils.crypto import salted_hmac

if TYPE_CHECKING:
    from games.models import Seat

log = logging.getLogger(__name__)

# A bot turn not played within this many seconds is picked up again by the sweep.
BOT_GRACE_SECONDS = 3
AWAY_BOT_LEVEL = "easy"  # plays for a seat that went away (api.md "Away seats")
TIMEOUT_BOT_LEVEL = "easy"  # picks the move for an expired turn (issue: "the easy bot")


class FollowUp(StrEnum):
    BOT = "bot"
    DEADLINE = "deadline"


def is_automatic(seat: Seat) -> bool:
    """Is this seat's turn played by a bot at once (a bot seat, or a human seat gone away)?"""
    return bool(seat.bot) or seat.user_id is None or seat.away


def decision_rng(match_id: int, version: int) -> random.Random:
    """The random source of one bot decision: the same for a replayed task (so a retry makes
    the same choice), keyed with the server's secret (so a client that knows the match id and
    version, both public, still cannot recompute it and narrow down the bot's hand)."""
    digest = salted_hmac("baloot.bot-decision", f"{match_id}:{version}", algorithm="sha256")
    return random.Random(int.from_bytes(digest.digest()[:8], "big"))


# Deadlines further away than this are left to the sweep alone: a broker holds a far-future
# ETA message unacknowledged, and Redis would redeliver it after its visibility timeout.
COUNTDOWN_MAX_SECONDS = 600


def schedule(match_id: int, version: int, follow_up: FollowUp, eta: datetime | None = None) -> None:
    from django.utils import timezone

    from games import tasks

    try:
        if follow_up is FollowUp.BOT:
            tasks.play_bot_turn.delay(match_id, version)
        elif eta is not None and (eta - timezone.now()).total_seconds() <= COUNTDOWN_MAX_SECONDS:
            tasks.expire_turn.apply_async((match_id, version), eta=eta)
    except Exception:  # the broker is down: the sweep will pick the turn up
        log.warning(
            "could not enqueue %s for match %s v%s", follow_up, match_id, version, exc_info=True
        )
