"""Which seated players hold a match's stream open right now, whatever process serves them.

Push stays quiet for a match its player is watching: the `your_turn` of a match whose stream
one of the player's connections holds is not pushed (the stream told them already). The web
processes mark a (user, match) pair in the shared ``push`` cache when a seated player's match
stream opens, renew their pairs in one write a process every ``RENEW_SECONDS`` (the stream
watcher's round, not a write a connection), and clear a pair when its last connection in the
process closes. A mark lives ``WATCH_SECONDS``: a process that dies stops renewing, so its
pairs lapse by themselves and pushes resume within that time.

The ``push`` cache is shared by every process in both configurations (Redis, or a table of the
database on the embedded default), which is why it holds these marks. A cache that cannot be
reached reads as "not watching": a push too many beats a turn never told.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.core.cache import caches

log = logging.getLogger(__name__)

WATCH_SECONDS = 90
RENEW_SECONDS = 30


def _key(user_id: int, match_id: int) -> str:
    return f"watching:{user_id}:{match_id}"


def watching_mark(pairs: Iterable[tuple[int, int]]) -> None:
    """Mark (user, match) pairs as watched for the next ``WATCH_SECONDS``."""
    keys = {_key(user_id, match_id): 1 for user_id, match_id in pairs}
    if keys:
        caches["push"].set_many(keys, timeout=WATCH_SECONDS)


def watching_clear(user_id: int, match_id: int) -> None:
    """The last connection of this process on the pair closed. (Another process's connection
    on the same pair marks it again at its next renewal.)"""
    caches["push"].delete(_key(user_id, match_id))


def is_watching(user_id: int, match_id: int) -> bool:
    try:
        return caches["push"].get(_key(user_id, match_id)) is not None
    except Exception as exc:  # the cache is down: push as if nobody watched
        log.warning("push: reading who watches failed (%s)", exc.__class__.__name__)
        return False
