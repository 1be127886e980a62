"""Thin Celery tasks for the outbox: deliver one row, and the beat sweep that finds pending
rows whose task was lost (or that came due: reminders, backoffs, expired leases)."""

from __future__ import annotations

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
