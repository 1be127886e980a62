"""Delivering one outbox row: claim it (a short transaction), send to each device with no
transaction open, then record the outcome (another short transaction).

At most one duplicate per crash: the claim moves ``due_at`` a lease ahead, so a worker killed
after sending but before recording leaves the row pending, and the sweep sends it again once
the lease is over, with the same collapse key, which makes the device show one notification.

A slow or dead target holds one push worker process for seconds at most (live/push/limits.py):
every send has short timeouts, a host whose breaker is open or whose slots are all taken is
not sent to (its devices are deferred: the row comes back after the wait, and that run does
not count as an attempt if nothing at all was sent), and a delivery stops starting sends after
``PUSH_DELIVERY_BUDGET_SECONDS`` or at the task's soft time limit, deferring the rest.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from datetime import timedelta

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import transaction

from accounts.models import User
from core import clock, metrics
from games.models import Match, MatchStatus
from live import watching
from live.push import limits, outbox
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
    # Not sent this time (breaker open, no free slot, out of time): retried after
    # ``defer_seconds``, the longest wait any of them asked for.
    deferred: list[int] = field(default_factory=list)
    defer_seconds: float = 0.0

    def defer(self, device_id: int, seconds: float) -> None:
        self.deferred.append(device_id)
        self.defer_seconds = max(self.defer_seconds, seconds)

    @property
    def sent_any(self) -> bool:
        return bool(self.delivered or self.gone or self.retry or self.failed)


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


def _skip(row: Notification, why: str) -> str:
    Notification.objects.filter(pk=row.pk).update(status=NotificationStatus.SKIPPED, last_error=why)
    return NotificationStatus.SKIPPED


def notification_deliver(*, notification_id: int) -> str:
    """Deliver a pending, due row; returns its status afterwards (or ``"not_due"``)."""
    row = _claim(notification_id)
    if row is None:
        return "not_due"
    if row.kind == EventKind.TURN_NEARLY_SPENT and not _still_that_turn(row):
        return _skip(row, "the turn was played")
    if (
        row.kind == EventKind.YOUR_TURN
        and row.match_id is not None
        and watching.is_watching(row.user_id, row.match_id)
    ):
        # The player holds the match's stream open: it told them already.
        return _skip(row, "watching the match")
    outcome = Outcome()
    # The account's language wins; a device's (its registering Accept-Language) is the
    # fallback for an account that chose none.
    chosen = User.objects.filter(pk=row.user_id).values_list("language", flat=True).first()
    devices = Device.objects.filter(user_id=row.user_id).exclude(pk__in=row.delivered_to)
    started = time.monotonic()
    out_of_time = False
    for device in devices.order_by("pk"):
        if row.kind in device.muted:
            continue  # muted on this device (PATCH /me/devices/{id}): not sent, not retried
        if out_of_time or time.monotonic() - started > settings.PUSH_DELIVERY_BUDGET_SECONDS:
            out_of_time = True
            outcome.defer(device.pk, 0.0)  # the next run carries on
            continue
        host = limits.target_host(device)
        ticket = None
        if host is not None:
            try:
                admitted = limits.send_admit(user_id=row.user_id, host=host)
            except Exception as exc:  # the push cache is down: send, bounded by the timeouts
                log.warning("push limits unavailable (%s); sending unbounded", exc)
                admitted = None
            if isinstance(admitted, float):
                outcome.defer(device.pk, admitted)
                continue
            ticket = admitted
        payload = payload_for(row, chosen or device.language)
        try:
            result = provider_for(device.platform).send(device, payload, row.collapse_key)
        except SoftTimeLimitExceeded:
            # The task is about to be killed: record what is known, defer the rest.
            log.warning("push delivery %s ran out of time at device %s", row.pk, device.pk)
            out_of_time = True
            result = Result.RETRY
        except Exception:  # a provider bug must not lose the row: retried, then failed
            log.exception("push provider raised for device %s", device.pk)
            result = Result.RETRY
        if ticket is not None:
            try:
                limits.send_done(ticket, result)
            except Exception as exc:  # the leases expire by themselves
                log.warning("push limits unavailable (%s); slots left to expire", exc)
        {
            Result.OK: outcome.delivered,
            Result.GONE: outcome.gone,
            Result.RETRY: outcome.retry,
            Result.FAILED: outcome.failed,
        }[result].append(device.pk)
    metrics.push_sent(
        {
            "ok": len(outcome.delivered),
            "gone": len(outcome.gone),
            "retry": len(outcome.retry),
            "failed": len(outcome.failed),
            "deferred": len(outcome.deferred),
        }
    )
    return notification_record(notification_id=row.pk, attempts=row.attempts, outcome=outcome)


@transaction.atomic
def notification_record(*, notification_id: int, attempts: int, outcome: Outcome) -> str:
    """Record a send: gone targets deleted, delivered ones remembered, and the row sent,
    due again after a backoff (or after the wait its deferred devices asked for), or failed
    once its attempts are spent."""
    row = Notification.objects.select_for_update().get(pk=notification_id)
    if outcome.gone:
        Device.objects.filter(pk__in=outcome.gone).delete()
    row.delivered_to = sorted({*row.delivered_to, *outcome.delivered})
    if not outcome.sent_any:
        # Nothing was sent (every device deferred): the claim's attempt is given back.
        attempts = row.attempts = max(attempts - 1, 0)
    now = clock.now()
    spent = bool(outcome.retry) and attempts >= settings.PUSH_MAX_ATTEMPTS
    if not spent and (outcome.retry or outcome.deferred):
        delay = max(
            backoff_seconds(attempts) if outcome.retry else 0.0,
            outcome.defer_seconds,
            1.0 if outcome.deferred else 0.0,
        )
        row.due_at = now + timedelta(seconds=delay)
        notes = []
        if outcome.retry:
            notes.append(f"{len(outcome.retry)} device(s) to retry")
        if outcome.deferred:
            notes.append(f"{len(outcome.deferred)} device(s) deferred")
        row.last_error = ", ".join(notes)
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
