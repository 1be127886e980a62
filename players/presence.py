"""Who is online, and in which public match, whatever web process serves them (issue 27,
point 5): what ``GET /me/friends`` shows and what followers hear on ``/ws/v1/me``.

Presence is derived from open streams, never stored per heartbeat. Each web process keeps the
users of its open connections in memory (``live.consumers``) and writes them to the shared
``push`` cache (Redis, or a table of the database on the embedded default, as the watching
marks of ``live.watching``): one entry per user, holding each process's part as ``{process:
[match, expires]}`` (``match`` the public match the user is seated in and streams, 0 for
none). A process writes a user's entry when the user's state in that process changes (the
first stream opens, a public match's stream opens or closes, the last stream closes), and
renews all its users' entries in one read and one write every ``RENEW_SECONDS`` (the stream
watcher's round), never a write a connection. A process's part lasts ``PRESENCE_SECONDS``: a
process that dies stops renewing, and its users read as offline within that time.

``last_seen_at`` on the user is written once, when a user's last stream closes everywhere (one
update per disconnect, none while connected). A process that dies writes none: its users keep
the ``last_seen`` of their previous disconnect.

The read-modify-write of an entry is not atomic across processes: two processes changing the
same user's entry at the same instant may lose one part until that process's next renewal.
"""

from __future__ import annotations

import logging
import os
import time
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core.cache import caches
from django.utils import timezone

from accounts.models import User

log = logging.getLogger(__name__)

PRESENCE_SECONDS = 90
RENEW_SECONDS = 30

ONLINE = "online"
IN_MATCH = "in_match"
OFFLINE = "offline"
STATES = (ONLINE, IN_MATCH, OFFLINE)

_process: tuple[int, str] | None = None


def process_id() -> str:
    """This process's name in the entries (a forked child gets a name of its own)."""
    global _process
    if _process is None or _process[0] != os.getpid():
        _process = (os.getpid(), uuid.uuid4().hex[:12])
    return _process[1]


@dataclass(frozen=True)
class Presence:
    state: str  # ONLINE, IN_MATCH or OFFLINE
    match_id: int | None = None


NOWHERE = Presence(OFFLINE)


def _clock() -> float:
    """Epoch seconds: when the parts of an entry expire (tests move it)."""
    return time.time()


def _key(user_id: int) -> str:
    return f"presence:{user_id}"


def _live(entry: Any, now: float) -> dict[str, list[Any]]:
    """The parts of an entry not yet expired."""
    if not isinstance(entry, dict):
        return {}
    return {p: part for p, part in entry.items() if isinstance(part, list) and part[1] > now}


def _presence(entry: Any, now: float) -> Presence:
    parts = _live(entry, now)
    if not parts:
        return NOWHERE
    matches = [int(part[0]) for part in parts.values() if part[0]]
    if matches:
        return Presence(IN_MATCH, max(matches))
    return Presence(ONLINE)


def presence_set(user_id: int, match_id: int | None) -> tuple[Presence, Presence]:
    """This process holds a stream of ``user_id`` (seated in the public ``match_id``'s stream,
    or None): the user's presence everywhere before and after."""
    cache = caches["push"]
    now = _clock()
    entry = _live(cache.get(_key(user_id)), now)
    before = _presence(entry, now)
    entry[process_id()] = [match_id or 0, now + PRESENCE_SECONDS]
    cache.set(_key(user_id), entry, timeout=PRESENCE_SECONDS)
    return before, _presence(entry, now)


def presence_leave(user_id: int) -> tuple[Presence, Presence, datetime | None]:
    """The last stream of ``user_id`` in this process closed: the presence before and after,
    and, when the user is now offline everywhere, the time written as their ``last_seen_at``
    (one update per disconnect)."""
    cache = caches["push"]
    now = _clock()
    entry = _live(cache.get(_key(user_id)), now)
    before = _presence(entry, now)
    entry.pop(process_id(), None)
    after = _presence(entry, now)
    seen = None
    if after == NOWHERE:
        # Before the mark goes: whoever reads the user offline reads this last_seen.
        seen = timezone.now()
        # Not for a deleted account: its streams close after its personal data was erased.
        User.objects.filter(pk=user_id, deleted_at__isnull=True).update(last_seen_at=seen)
    if entry:
        cache.set(_key(user_id), entry, timeout=PRESENCE_SECONDS)
    else:
        cache.delete(_key(user_id))
    return before, after, seen


def presence_renew(users: Mapping[int, int | None]) -> None:
    """Renew this process's part of every entry of ``users`` (user → public match or None):
    one read and one write for all of them, whatever the number of connections."""
    if not users:
        return
    cache = caches["push"]
    now = _clock()
    me = process_id()
    keys = {_key(user_id): user_id for user_id in users}
    found = cache.get_many(list(keys))
    renewed = {}
    for key, user_id in keys.items():
        entry = _live(found.get(key), now)
        entry[me] = [users[user_id] or 0, now + PRESENCE_SECONDS]
        renewed[key] = entry
    cache.set_many(renewed, timeout=PRESENCE_SECONDS)


def presence_of(user_ids: Iterable[int]) -> dict[int, Presence]:
    """The presence of each of ``user_ids`` as the open streams say it (one cache read); a
    cache that cannot be read says offline."""
    ids = list(dict.fromkeys(user_ids))
    if not ids:
        return {}
    try:
        found = caches["push"].get_many([_key(user_id) for user_id in ids])
    except Exception as exc:
        log.warning("presence: reading the cache failed (%s)", exc.__class__.__name__)
        found = {}
    now = _clock()
    return {user_id: _presence(found.get(_key(user_id)), now) for user_id in ids}
