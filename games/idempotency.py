"""Idempotency records live for ``BALOOT["IDEMPOTENCY_TTL_HOURS"]`` (api.md: at least 24 hours).

Within the TTL a retried move with the same key replays the stored answer; after it the key is
free again. ``purge_expired`` runs from beat (``games.tasks.purge_idempotency_records``), and a
record past its TTL that the purge has not reached yet counts as gone already
(``games.api.idempotency.stored_answer``), so the TTL holds to the second either way.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from games.models import IdempotencyRecord

# Rows per DELETE: each batch is its own short transaction, so a large backlog never holds
# SQLite's single write lock for long.
PURGE_BATCH = 1000


def ttl() -> timedelta:
    return timedelta(hours=settings.BALOOT["IDEMPOTENCY_TTL_HOURS"])


def is_expired(record: IdempotencyRecord, now: datetime | None = None) -> bool:
    return record.created_at <= (now or timezone.now()) - ttl()


def purge_expired(*, now: datetime | None = None, batch: int = PURGE_BATCH) -> int:
    """Delete every record older than the TTL (on the indexed ``created_at``); the count."""
    cutoff = (now or timezone.now()) - ttl()
    expired = IdempotencyRecord.objects.filter(created_at__lte=cutoff)
    deleted = 0
    while True:
        ids = list(expired.order_by("created_at").values_list("pk", flat=True)[:batch])
        if not ids:
            return deleted
        deleted += IdempotencyRecord.objects.filter(pk__in=ids).delete()[0]
        if len(ids) < batch:
            return deleted
