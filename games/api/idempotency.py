"""Idempotent retries of a move (api.md "Idempotency-Key"): the API's concern, not the game's.

Both functions run inside the view's transaction while it holds the match row lock
(``services.match_lock_seated``), so two retries racing with the same key serialise: the
second waits for the lock, then finds the first one's stored answer instead of playing twice.
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

from django.db import IntegrityError, transaction

from accounts.models import User
from games import idempotency
from games.errors import IdempotencyKeyReused
from games.models import IdempotencyRecord, Match

log = logging.getLogger(__name__)


def request_fingerprint(payload: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def stored_answer(
    *, user: User, match: Match, key: str, fingerprint: str
) -> IdempotencyRecord | None:
    """The answer stored for this key, if any; the same key with another body is refused."""
    stored = IdempotencyRecord.objects.filter(user=user, match=match, key=key).first()
    if stored is not None and idempotency.is_expired(stored):
        # Past its TTL but not purged yet: the key is free again, as after the purge.
        stored.delete()
        stored = None
    if stored is not None and stored.fingerprint != fingerprint:
        raise IdempotencyKeyReused()
    return stored


def answer_store(
    *, user: User, match: Match, key: str, fingerprint: str, status: int, body: dict[str, Any]
) -> None:
    try:
        with transaction.atomic():
            IdempotencyRecord.objects.create(
                user=user,
                match=match,
                key=key,
                fingerprint=fingerprint,
                status_code=status,
                body=body,
            )
    except IntegrityError:  # pragma: no cover - the row lock makes this unreachable
        log.warning("idempotency record raced for match %s", match.pk)
