"""Thin Celery tasks: they take ids and the version they were scheduled for, and call one
service, which re-reads under the row lock and does nothing if the match moved on. That makes
every task idempotent per (match, version), so ``acks_late`` redelivery after a worker crash
can never play a move twice.

Three queues: every task runs on the default one but ``play_hard_bot_turn`` and
``analyse_match``, which have their own (``HARD_BOT_QUEUE``, ``ANALYSIS_QUEUE``;
docs/operations.md "Queues and workers")."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any

from celery import Task, shared_task
from django.conf import settings
from django.db import DatabaseError, transaction

from core import clock, metrics
from games import idempotency, services
from games.events import MatchFinished
from games.models import Match
from games.services.scheduling import FollowUp, scheduler_register

log = logging.getLogger(__name__)

# The name the sweep records its completions under; /healthz reads it.
SWEEP_HEARTBEAT = "sweep"

TurnTask = Task[[int, int], bool]


def _turn_task(**options: Any) -> Callable[[Callable[[int, int], bool]], TurnTask]:
    """A turn task is safe to redeliver (it re-reads under the lock and checks the version),
    so it is acknowledged only once done, and retried on a passing database error."""

    def make(fun: Callable[[int, int], bool]) -> TurnTask:
        return shared_task(
            acks_late=True,
            reject_on_worker_lost=True,
            autoretry_for=(DatabaseError,),
            retry_backoff=True,
            max_retries=5,
            **options,
        )(fun)

    return make


@_turn_task()
def play_bot_turn(match_id: int, version: int) -> bool:
    """Play the bot seat whose turn it was at ``version``; a no-op if the match moved on. A
    hard bot's turn is handed to ``play_hard_bot_turn`` instead of being thought here."""
    return services.bot_turn_play(match_id=match_id, expected_version=version)


# The hard bot's turn, routed to its own queue (CELERY_TASK_ROUTES). Its time limits are
# everyone's plus its thinking budget, so that a longer budget is never cut short by limits set
# for tasks of milliseconds.
_HARD_BUDGET = settings.BALOOT["HARD_BOT_TIME_BUDGET"]


@_turn_task(
    soft_time_limit=settings.CELERY_TASK_SOFT_TIME_LIMIT + _HARD_BUDGET,
    time_limit=settings.CELERY_TASK_TIME_LIMIT + _HARD_BUDGET,
)
def play_hard_bot_turn(match_id: int, version: int) -> bool:
    """Play the hard bot seat whose turn it was at ``version``; a no-op if the match moved on
    or another worker is already thinking on that turn."""
    return services.hard_bot_turn_play(match_id=match_id, expected_version=version)


# Celery's default queue: the fast bots' turns, deadlines, the sweep and every other task.
DEFAULT_QUEUE: str = settings.CELERY_TASK_DEFAULT_QUEUE
# The hard bot's turns, and only them, consumed by workers of their own
# (`celery worker -Q bots-hard`: scripts/supervise.py, docker/compose.yaml). A hard bot thinks
# for a second; on the default queue each of its turns would hold a worker process that a fast
# bot's reply, an expired deadline or the sweep is waiting for.
HARD_BOT_QUEUE: str = settings.CELERY_TASK_ROUTES[play_hard_bot_turn.name]["queue"]


@_turn_task()
def expire_turn(match_id: int, version: int) -> bool:
    """The human turn at ``version`` ran out of time; a no-op if it was played."""
    return services.turn_expire(match_id=match_id, expected_version=version)


@shared_task(acks_late=True, ignore_result=True)
def sweep_deadlines(limit: int = 500) -> int:
    """Catch every due turn a lost task missed (worker crash, broker restart, far deadline).

    Reads only the indexed ``deadline`` column, then settles each due match in its own
    transaction, so one bad match cannot hold up the rest. Only active matches hold a deadline
    (ending a match clears it), and the services check the status again under the lock;
    filtering on status here would lead SQLite's planner to the status index and a scan of
    every active match instead of the partial index on due deadlines.

    A due hard bot turn is not thought here (the sweep runs on the default queue, every
    second): ``bot_turn_play`` sends it to the hard bots' queue again and moves its deadline a
    grace ahead, so it is not sent every second while that queue is busy.
    """
    now = clock.now()
    due = list(
        Match.objects.filter(deadline__lte=now)
        .order_by("deadline")
        .values_list("pk", "version", "deadline")[:limit]
    )
    settled = 0
    for match_id, version, deadline in due:
        if deadline is not None:  # due, so set (the filter)
            metrics.sweep_lag((now - deadline).total_seconds())
        try:
            if services.bot_turn_play(
                match_id=match_id, expected_version=version
            ) or services.turn_expire(match_id=match_id, expected_version=version):
                settled += 1
        except Exception:
            log.exception("sweep could not settle match %s at v%s", match_id, version)
    services.heartbeat_record(name=SWEEP_HEARTBEAT)
    return settled


@shared_task(acks_late=True, ignore_result=True)
def purge_idempotency_records() -> int:
    """Beat, every few minutes: delete idempotency records past their TTL."""
    return idempotency.purge_expired()


# Deadlines further away than this are left to the sweep alone: a broker holds a far-future
# ETA message unacknowledged, and Redis would redeliver it after its visibility timeout.
COUNTDOWN_MAX_SECONDS = 600


def enqueue_follow_up(
    match_id: int, version: int, follow_up: FollowUp, eta: datetime | None = None
) -> None:
    """Queue what a committed match needs next (``games.services.scheduling.schedule`` calls
    this after commit and logs, rather than raises, a broker failure)."""
    if follow_up is FollowUp.BOT:
        play_bot_turn.delay(match_id, version)
    elif follow_up is FollowUp.HARD_BOT:
        play_hard_bot_turn.delay(match_id, version)
    elif eta is not None and (eta - clock.now()).total_seconds() <= COUNTDOWN_MAX_SECONDS:
        expire_turn.apply_async((match_id, version), eta=eta)


scheduler_register(enqueue_follow_up)


# --- Post-game analysis ------------------------------------------------------------------------


@shared_task(
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
    autoretry_for=(DatabaseError,),
    retry_backoff=True,
    max_retries=5,
    # A whole match's search takes seconds (bench/analysis_levels.py): minutes, not the
    # defaults set for tasks of milliseconds.
    soft_time_limit=600,
    time_limit=660,
)
def analyse_match(match_id: int) -> bool:
    """Analyse a finished match (``games.services.analysis``); a no-op once it is ready, so a
    redelivery or the sweep's second send does nothing twice."""
    return services.analysis_make(match_id)


# Its own queue, low priority (`celery worker -Q analysis`: scripts/supervise.py,
# docker/compose.yaml): seconds of search per match must never wait in front of a bot's turn.
ANALYSIS_QUEUE: str = settings.CELERY_TASK_ROUTES[analyse_match.name]["queue"]
# Pending longer than this: the task was lost (a worker killed, the broker restarted).
ANALYSIS_RETRY_SECONDS = 900


def on_match_finished(event: MatchFinished) -> None:
    """Inside the finishing transaction: open the match's analysis, and send it to the
    analysis queue once that commits."""
    if services.analysis_open(event) is not None:
        transaction.on_commit(lambda: _send_analysis(event.match_id), robust=True)


def _send_analysis(match_id: int) -> None:
    analyse_match.delay(match_id)


@shared_task(acks_late=True, ignore_result=True)
def sweep_analyses() -> int:
    """Beat, every few minutes: send again the analyses pending too long."""
    pending = services.analyses_pending(ANALYSIS_RETRY_SECONDS)
    for match_id in pending:
        analyse_match.delay(match_id)
    return len(pending)
