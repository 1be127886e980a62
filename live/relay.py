"""How a committed event reaches the web processes' connections: one mechanism per backend,
behind ``publish`` (called by the listeners inside the write transaction) and ``start`` (called
by a web process before it serves its first connection).

- ``redis``: channels-redis. ``publish`` waits for the commit, then ``group_send``s to the
  match's or user's group from whichever process committed (web or worker).
- ``table``: the embedded default (SQLite, no server), where the in-memory channel layer does
  not cross processes. ``publish`` writes a ``LiveEvent`` row inside the transaction (so it
  exists if and only if the change commits); each web process runs one asyncio task that tails
  ``id > last`` every ``LIVE["POLL_SECONDS"]`` and ``group_send``s the rows to its in-memory
  layer. A beat task purges old rows.

Either way, what reaches a consumer is a note of ids and public facts (``kind``, ``match_id``,
``version``, ``chat_id``, ``user_id``, ``deadline``), never content: a match consumer re-reads
the log (or the chat).
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
import weakref
from collections.abc import Coroutine
from datetime import datetime, timedelta
from typing import Any, TypedDict

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from live.models import LiveEvent

log = logging.getLogger(__name__)

# A match's version went up (every committed change): its stream re-reads the log.
VERSION = "version"
# A quick-chat phrase was sent to a match's table. Chat is not a move: the note has no
# ``version`` (None) and names the message in ``chat_id``; the stream re-reads the chat after
# the last message it sent, so the note stays a "look again".
CHAT = "chat"
# Inbox events for one player (the player stream).
INBOX_KINDS = (
    "your_turn",
    "match_started",
    "match_finished",
    "invitation",
    "seat_to_bot",
    "rematch_cancelled",
    "analysis_ready",
)
# Tournament events for one player (the player stream's ``tournament`` messages).
TOURNAMENT_KINDS = (
    "tournament_match_ready",
    "tournament_round_started",
    "tournament_finished",
)


class Note(TypedDict):
    kind: str
    # None for a tournament note about no one match (a round started, the tournament ended).
    match_id: int | None
    # The match version the note is about; None for a chat note.
    version: int | None
    # The chat message a ``CHAT`` note is about; None for every other kind.
    chat_id: int | None
    user_id: int | None
    deadline: str | None
    # When the change was committed (epoch seconds): the streams' lag is measured from it.
    at: float
    # A tournament note's tournament and round; None for every other kind.
    tournament_id: int | None
    round: int | None


def match_group(match_id: int) -> str:
    return f"match.{match_id}"


def user_group(user_id: int) -> str:
    return f"user.{user_id}"


def mechanism() -> str:
    return str(settings.LIVE["RELAY"])


def note_make(
    kind: str,
    match_id: int | None,
    version: int | None,
    user_id: int | None = None,
    deadline: datetime | None = None,
    at: float | None = None,
    chat_id: int | None = None,
    tournament_id: int | None = None,
    round: int | None = None,
) -> Note:
    return {
        "tournament_id": tournament_id,
        "round": round,
        "kind": kind,
        "match_id": match_id,
        "version": version,
        "chat_id": chat_id,
        "user_id": user_id,
        "deadline": deadline.isoformat().replace("+00:00", "Z") if deadline else None,
        "at": time.time() if at is None else at,
    }


def publish(note: Note) -> None:
    """Deliver ``note`` once the current transaction commits (never if it rolls back)."""
    if mechanism() == "redis":
        # robust: a Redis outage must not fail the request or task whose change committed; the
        # stream's periodic re-read catches up its connections.
        transaction.on_commit(lambda: _send_now(note), robust=True)
    else:
        LiveEvent.objects.create(
            kind=note["kind"],
            match_id=note["match_id"],
            version=note["version"],
            chat_id=note["chat_id"],
            user_id=note["user_id"],
            deadline=datetime.fromisoformat(note["deadline"]) if note["deadline"] else None,
            tournament_id=note["tournament_id"],
            round=note["round"],
        )


def _group_of(note: Note) -> str:
    if note["user_id"] is not None:
        return user_group(note["user_id"])
    assert note["match_id"] is not None  # every note for no one user is a match's
    return match_group(note["match_id"])


def _send_now(note: Note) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": "live.note", **note}
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        # Synchronous code (a request, a task): hand the send to this process's sender loop.
        _sender().send(layer.group_send(_group_of(note), message))
    else:  # pragma: no cover - publish() is called from sync code; kept correct regardless
        async_to_sync(layer.group_send)(_group_of(note), message)


class _SenderLoop:
    """One event loop per process, in a daemon thread, that sends the notes committed by
    synchronous code. ``async_to_sync`` would make a new event loop for every send, and
    channels-redis keeps its connections per loop, so each note paid for a new Redis connection
    (about 4 ms, 11 at p95 under load, against 0.06 ms for the send itself); here the loop, and
    with it the connection, lives as long as the process."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(
            target=self.loop.run_forever, name="live-relay-sender", daemon=True
        )
        self.thread.start()

    def usable(self) -> bool:
        # A forked child (a Celery pool process, a gunicorn worker) inherits the object but not
        # the thread: it starts its own.
        return self.pid == os.getpid() and self.thread.is_alive()

    def send(self, coroutine: Coroutine[Any, Any, None]) -> None:
        """Run ``coroutine`` on the loop and wait for it: the caller hears of a failure, and
        notes leave in the order they were committed."""
        future = asyncio.run_coroutine_threadsafe(coroutine, self.loop)
        future.result(timeout=SEND_TIMEOUT_SECONDS)


# A send waits at most this long (Redis down: the caller logs it and carries on; the streams'
# periodic re-read catches up).
SEND_TIMEOUT_SECONDS = 10.0

_sender_loop: _SenderLoop | None = None
_sender_lock = threading.Lock()


def _sender() -> _SenderLoop:
    global _sender_loop
    with _sender_lock:
        if _sender_loop is None or not _sender_loop.usable():
            _sender_loop = _SenderLoop()
        return _sender_loop


# --- The table relay's tail, one per web process (per event loop) ---------------------------

# Keyed by the loop itself (weakly): a loop's id may be reused once it is gone, as in tests
# that start a server per test. Each tail comes with the future it resolves once it knows
# where the table ends.
_tails: weakref.WeakKeyDictionary[
    asyncio.AbstractEventLoop, tuple[asyncio.Task[None], asyncio.Future[None]]
] = weakref.WeakKeyDictionary()


async def start() -> None:
    """Make sure this process hears of commits made elsewhere (a no-op on Redis, where the
    channel layer itself does). Returns once the tail has read where the table ends, so a
    connection that reads its state after this misses nothing committed later."""
    if mechanism() != "table":
        return
    loop = asyncio.get_running_loop()
    running = _tails.get(loop)
    if running is None or running[0].done():
        # Registered before anything awaits: connections opening at the same moment must share
        # one tail (two tails would hand every row to every connection twice).
        ready: asyncio.Future[None] = loop.create_future()
        running = (loop.create_task(_tail(ready), name="live-table-tail"), ready)
        _tails[loop] = running
    await asyncio.shield(running[1])


def _last_id() -> int:
    row = LiveEvent.objects.order_by("-id").values_list("id", flat=True).first()
    return int(row or 0)


def _rows_after(last: int) -> list[dict[str, Any]]:
    rows = LiveEvent.objects.filter(id__gt=last).order_by("id")
    return [
        dict(row)
        for row in rows.values(
            "id",
            "kind",
            "match_id",
            "version",
            "chat_id",
            "user_id",
            "deadline",
            "created_at",
            "tournament_id",
            "round",
        )[:1000]
    ]


async def _tail(ready: asyncio.Future[None]) -> None:
    layer = get_channel_layer()
    assert layer is not None
    try:
        last = await database_sync_to_async(_last_id)()
    except asyncio.CancelledError:
        ready.cancel()
        raise
    except Exception as failed:
        ready.set_exception(failed)
        raise
    ready.set_result(None)
    read = database_sync_to_async(_rows_after)
    while True:
        try:
            rows = await read(last)
        except Exception:  # a locked or briefly unavailable database: try again shortly
            log.exception("live: reading live events failed")
            rows = []
        for row in rows:
            last = row["id"]
            note = note_make(
                row["kind"],
                row["match_id"],
                row["version"],
                row["user_id"],
                row["deadline"],
                row["created_at"].timestamp(),
                row["chat_id"],
                row["tournament_id"],
                row["round"],
            )
            await layer.group_send(_group_of(note), {"type": "live.note", **note})
        if len(rows) < 1000:
            await asyncio.sleep(float(settings.LIVE["POLL_SECONDS"]))


def events_purge(*, older_than: timedelta | None = None) -> int:
    """Delete table-relay rows every web process has long since read."""
    age = older_than or timedelta(seconds=float(settings.LIVE["EVENT_TTL_SECONDS"]))
    deleted, _ = LiveEvent.objects.filter(created_at__lt=timezone.now() - age).delete()
    return deleted
