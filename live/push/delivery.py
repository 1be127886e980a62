"""Delivering one outbox row: claim it (a short transaction), send to each device with no
transaction open, then record the outcome (another short transaction).

At most one duplicate per crash: the claim moves ``due_at`` a lease ahead, so a worker killed
after sending but before recording leaves the row pending, and the sweep sends it again once
the lease is over, with the same collapse key, which makes the device show one notification.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.db import transaction

from accounts.models import User
from core import clock
from games.models import Match, MatchStatus
from live.push import outbox
from live.push.kinds import EventKind
from live.push.models import Device, Notification, NotificationStatus
from live.push.payloads import payload_for
from live.push.providers import Result, provider_for

log = logging.getLogger(__name__)


@dataclass
class Outcome:
    delivered: list[int] = field(default_factory=list)
    gone: list[int] = field(default_factory=list)
    retry: list[int] = field(default_factory=list)
    failed: list[int] = field(default_factory=list)


def backoff_seconds(attempts: int) -> float:
    """Exponential: base, 2 base, 4 base, ... capped at an hour."""
    return float(min(settings.PUSH_BACKOFF_SECONDS * 2 ** max(attempts - 1, 0), 3600))


@transaction.atomic
def _claim(notification_id: int) -> Notification | None:
    row = Notification.objects.select_for_update().filter(pk=notification_id).first()
    now = clock.now()
    if row is None or row.status != NotificationStatus.PENDING or row.due_at > now:
        return None  # sent already, or another worker holds its lease, or not due yet
    row.attempts += 1
    row.due_at = now + timedelta(seconds=settings.PUSH_LEASE_SECONDS)
    row.save(update_fields=["attempts", "due_at"])
    return row


def _still_that_turn(row: Notification) -> bool:
    """A reminder is for the turn at its version: pointless once the match moved on."""
    if row.match_id is None:
        return False
    match = Match.objects.filter(pk=row.match_id).values("status", "version").first()
    return (
        match is not None
        and match["status"] == MatchStatus.ACTIVE
        and match["version"] == row.version
    )


def notification_deliver(*, notification_id: int) -> str:
    """Deliver a pending, due row; returns its status afterwards (or ``"not_due"``)."""
    row = _claim(notification_id)
    if row is None:
        return "not_due"
    if row.kind == EventKind.TURN_NEARLY_SPENT and not _still_that_turn(row):
        Notification.objects.filter(pk=row.pk).update(status=NotificationStatus.SKIPPED)
        return NotificationStatus.SKIPPED
    outcome = Outcome()
    # The account's language wins; a device's (its registering Accept-Language) is the
    # fallback for an account that chose none.
    chosen = User.objects.filter(pk=row.user_id).values_list("language", flat=True).first()
    devices = Device.objects.filter(user_id=row.user_id).exclude(pk__in=row.delivered_to)
    for device in devices.order_by("pk"):
        payload = payload_for(row, chosen or device.language)
        try:
            result = provider_for(device.platform).send(device, payload, row.collapse_key)
        except Exception:  # a provider bug must not lose the row: retried, then failed
            log.exception("push provider raised for device %s", device.pk)
            result = Result.RETRY
        {
            Result.OK: outcome.delivered,
            Result.GONE: outcome.gone,
            Result.RETRY: outcome.retry,
            Result.FAILED: outcome.failed,
        }[result].append(device.pk)
    return notification_record(notification_id=row.pk, attempts=row.attempts, outcome=outcome)


@transaction.atomic
def notification_record(*, notification_id: int, attempts: int, outcome: Outcome) -> str:
    """Record a send: gone targets deleted, delivered ones remembered, and the row sent,
    due again after a backoff, or failed once its attempts are spent."""
    row = Notification.objects.select_for_update().get(pk=notification_id)
    if outcome.gone:
        Device.objects.filter(pk__in=outcome.gone).delete()
    row.delivered_to = sorted({*row.delivered_to, *outcome.delivered})
    now = clock.now()
    if outcome.retry and attempts < settings.PUSH_MAX_ATTEMPTS:
        delay = backoff_seconds(attempts)
        row.due_at = now + timedelta(seconds=delay)
        row.last_error = f"{len(outcome.retry)} device(s) to retry"
        transaction.on_commit(lambda: outbox.enqueue(notification_id, countdown=delay))
    elif outcome.retry or (outcome.failed and not row.delivered_to):
        row.status = NotificationStatus.FAILED
        row.last_error = "retries spent" if outcome.retry else "refused by the push service"
    elif row.delivered_to:
        row.status = NotificationStatus.SENT
        row.sent_at = now
    else:
        row.status = NotificationStatus.SKIPPED  # no device left to send to
    row.save()
    return row.status
