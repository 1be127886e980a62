"""What a committed match needs next: a bot move now, or a deadline later.

Scheduling happens after commit and must never fail the request that made the move: if the
broker is unreachable the move is already safe in the database, and the periodic sweep
(``games.tasks.sweep_deadlines``) finds the turn by its ``deadline`` column.

The services sit below the Celery tasks (the tasks call the services), so they cannot import
them; ``games.tasks`` registers the function that enqueues them (``scheduler_register``) when
it is imported, which ``GamesConfig.ready`` makes sure of in every process.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from enum import StrEnum

from django.conf import settings
from django.db import transaction

log = logging.getLogger(__name__)

# A bot turn not played within this many seconds is picked up again by the sweep.
BOT_GRACE_SECONDS = 3


class FollowUp(StrEnum):
    BOT = "bot"
    # A hard bot's move: on a queue of its own, so its second of thinking never waits in front
    # of the fast bots, the deadlines and the sweep (games.tasks.HARD_BOT_QUEUE).
    HARD_BOT = "hard_bot"
    DEADLINE = "deadline"


def bot_grace_seconds(follow_up: FollowUp) -> float:
    """How long a bot turn may stay unplayed before the sweep picks it up again. A hard bot
    gets its thinking budget on top, so that a think that starts at once has the same slack as
    a fast bot's and the sweep does not send a second task for a turn still being thought."""
    if follow_up is FollowUp.HARD_BOT:
        return BOT_GRACE_SECONDS + settings.BALOOT["HARD_BOT_TIME_BUDGET"]
    return BOT_GRACE_SECONDS


Scheduler = Callable[[int, int, FollowUp, datetime | None], None]
_scheduler: Scheduler | None = None


def scheduler_register(scheduler: Scheduler) -> None:
    global _scheduler
    _scheduler = scheduler


def schedule(match_id: int, version: int, follow_up: FollowUp, eta: datetime | None = None) -> None:
    if _scheduler is None:  # pragma: no cover - GamesConfig.ready registers it
        log.warning("no scheduler registered; the sweep will find match %s", match_id)
        return
    try:
        _scheduler(match_id, version, follow_up, eta)
    except Exception:  # the broker is down: the sweep will pick the turn up
        log.warning(
            "could not enqueue %s for match %s v%s", follow_up, match_id, version, exc_info=True
        )


def schedule_on_commit(match_id: int, version: int, follow_up: FollowUp, eta: datetime | None):
    transaction.on_commit(lambda: schedule(match_id, version, follow_up, eta))
