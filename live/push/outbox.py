"""Handing outbox rows to the worker: after the commit, never inside the transaction."""

from __future__ import annotations

import logging
from functools import partial

from django.db import transaction

from core import clock
from live.push.models import Notification

log = logging.getLogger(__name__)


def enqueue(notification_id: int, *, countdown: float | None = None) -> None:
    """Queue the delivery task. A broker that refuses it loses nothing: the row stays
    pending and the beat sweep (``sweep_outbox``) sends it."""
    from live.push.tasks import deliver_notification

    try:
        if countdown is None:
            deliver_notification.apply_async((notification_id,))
        else:
            deliver_notification.apply_async((notification_id,), countdown=countdown)
    except Exception as exc:  # any broker failure; the sweep is the safety net
        log.warning(
            "push delivery %s not queued (%s); the sweep will send it", notification_id, exc
        )


def enqueue_on_commit(row: Notification) -> None:
    """Rows due now are queued on commit; a reminder due later is found by the sweep."""
    if row.due_at <= clock.now():
        transaction.on_commit(partial(enqueue, row.pk))
