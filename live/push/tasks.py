"""Thin Celery tasks for the outbox: deliver one row; the beat sweep that finds pending rows
whose task was lost (or that came due: reminders, backoffs, expired leases); and the purge of
settled rows. All three run on the queue of their own, ``PUSH_QUEUE`` (CELERY_TASK_ROUTES),
with a worker of its own: a delivery waits on servers we do not run, and must never hold a
process that a bot's turn or a deadline is waiting for."""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.db import DatabaseError

from core import clock
from live.push import outbox
from live.push.delivery import notification_deliver
from live.push.models import Notification, NotificationStatus


@shared_task(
    acks_late=True,
    ignore_result=True,
    autoretry_for=(DatabaseError,),
    retry_backoff=True,
    max_retries=5,
)
def deliver_notification(notification_id: int) -> str:
    """Safe to run twice: the claim under the row lock lets one delivery through per lease."""
    return notification_deliver(notification_id=notification_id)


# The push queue, consumed by the push worker only (`celery worker -Q push`:
# scripts/supervise.py, docker/compose.yaml).
PUSH_QUEUE: str = settings.CELERY_TASK_ROUTES[deliver_notification.name]["queue"]


def _enqueue(notification_id: int, countdown: float | None) -> None:
    if countdown is None:
        deliver_notification.apply_async((notification_id,))
    else:
        deliver_notification.apply_async((notification_id,), countdown=countdown)


outbox.enqueuer_register(_enqueue)


@shared_task(acks_late=True, ignore_result=True)
def sweep_outbox(limit: int = 200) -> int:
    """Queue the pending rows that are due, by the (status, due_at) index."""
    due = list(
        Notification.objects.filter(status=NotificationStatus.PENDING, due_at__lte=clock.now())
        .order_by("due_at")
        .values_list("pk", flat=True)[: limit or settings.PUSH_SWEEP_LIMIT]
    )
    for pk in due:
        outbox.enqueue(pk)
    return len(due)


@shared_task(acks_late=True, ignore_result=True)
def purge_outbox(limit: int = 5000) -> int:
    """Delete settled rows (sent, failed, skipped) older than ``PUSH_KEEP_DAYS``, by the
    same (status, due_at) index: a settled row's ``due_at`` is its last attempt."""
    cutoff = clock.now() - timedelta(days=settings.PUSH_KEEP_DAYS)
    settled = [s for s in NotificationStatus.values if s != NotificationStatus.PENDING]
    old = Notification.objects.filter(status__in=settled, due_at__lt=cutoff)
    ids = list(old.values_list("pk", flat=True)[:limit])
    Notification.objects.filter(pk__in=ids).delete()
    return len(ids)
