"""Handing outbox rows to the worker: after the commit, never inside the transaction."""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial

from django.db import transaction
from django.db.models import Min

from core import clock
from live.push.models import Notification, NotificationStatus

log = logging.getLogger(__name__)


# The tasks sit above this module (they call the delivery, which queues retries through
# here), so it cannot import them; ``live.push.tasks`` registers the function that queues the
# delivery task when it is imported, which ``PushConfig.ready`` makes sure of.
Enqueuer = Callable[[int, float | None], None]
_enqueuer: Enqueuer | None = None


def enqueuer_register(enqueuer: Enqueuer) -> None:
    global _enqueuer
    _enqueuer = enqueuer


def enqueue(notification_id: int, *, countdown: float | None = None) -> None:
    """Queue the delivery task. A broker that refuses it loses nothing: the row stays
    pending and the beat sweep (``sweep_outbox``) sends it."""
    if _enqueuer is None:  # pragma: no cover - PushConfig.ready registers it
        log.warning("no push enqueuer registered; the sweep will send %s", notification_id)
        return
    try:
        _enqueuer(notification_id, countdown)
    except Exception as exc:  # any broker failure; the sweep is the safety net
        log.warning(
            "push delivery %s not queued (%s); the sweep will send it", notification_id, exc
        )


def enqueue_on_commit(row: Notification) -> None:
    """Rows due now are queued on commit; a reminder due later is found by the sweep."""
    if row.due_at <= clock.now():
        transaction.on_commit(partial(enqueue, row.pk))


# The backlog count stops here: past it, "more than this" is all an operator needs to know,
# and the count stays one bounded index range scan.
BACKLOG_COUNT_CAP = 10_000


def backlog_read() -> dict[str, int | float | None]:
    """Pending rows that are due (not a reminder waiting for its time, nor a row waiting out
    its backoff): how many (at most ``BACKLOG_COUNT_CAP``), and how long the oldest has
    waited, in seconds (None when there is none). Both read the (status, due_at) index."""
    now = clock.now()
    due = Notification.objects.filter(status=NotificationStatus.PENDING, due_at__lte=now)
    count = due[:BACKLOG_COUNT_CAP].count()
    oldest = due.aggregate(oldest=Min("due_at"))["oldest"] if count else None
    return {
        "due": count,
        "oldest_due_seconds": None if oldest is None else round((now - oldest).total_seconds(), 1),
    }
