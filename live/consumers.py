"""The two streams (api.md "Live delivery"): a match's log and view, and a player's inbox.

Content always comes from the database through the same reads as the HTTP views
(``match_for_viewer``'s rule, ``move_log``, ``match_view``), so hidden information keeps one
path; a relay note only says "look again" (a chat note too: the stream re-reads the table's chat
as ``GET /matches/{id}/chat`` does, for a seated viewer only). A committed version is read once
per process and rendered once per perspective (the seat, or the outsider's cut; and the
language), and its encoded messages go to every connection of that perspective
(``live.renders``). Each match connection remembers the last version it sent and takes the
items after it, so a slow client may get one view for several versions but never misses a move
item, and nothing is sent twice; one that is behind further than the shared render covers (a
connection with an old ``since``) reads its own catch-up, a page at a time. A spectator's reads
are one complete trick behind (``games.selectors.spectating``), so is their stream.

A connection never queues: one pass at a time writes its messages (at most a page of items and
a view, references to the shared texts), each send waiting while the server's write buffer is
over its high-water mark (a client that does not read), and the notes that arrive meanwhile
fold into one wake-up, so the next pass skips to the newest version with every item it missed.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections import Counter
from collections.abc import Callable, Coroutine
from typing import Any, ClassVar

from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.utils import translation

from accounts.models import User
from core.i18n import preferred_language
from games import selectors
from games.api import bodies
from games.errors import MatchNotFound
from games.models import Match, MatchStatus, Visibility
from live import auth, relay, renders, watching
from players import presence
from players.api import chat as chat_api
from players.selectors import chat as chat_selectors
from players.selectors import presence as presence_selectors

log = logging.getLogger(__name__)

# Open connections per user in this process (LIVE["MAX_CONNECTIONS_PER_USER"]). A connection
# takes its user's slot at most once (``_Stream._slot_take``) and gives it back exactly once
# (``_Stream._free``), whatever ends it: a close either way, a refusal, or an exception in any
# handler or background task (the consumer's ``dispatch`` and ``__call__`` see to it). The
# count lives in this process's memory, so a process that dies takes its slots with it and
# none can outlive their connection; a count shared between processes (in Redis, say) would
# need leases instead: an entry per connection with an expiry that the watcher below renews.
_open: Counter[int] = Counter()
# Every authenticated connection of this process, for the watcher below.
_streams: set[_Stream] = set()
# Seated players' match streams of this process, by (user, match): what live.watching marks
# in the shared cache, so push stays quiet for a match its player watches.
_watched: Counter[tuple[int, int]] = Counter()
# Presence (players.presence): the users of this process's open connections, each connection
# counted under the public match whose stream it is, the user seated (0: any other stream);
# what this process last wrote of each user to the shared cache (the public match, 0 for
# none); and one lock per user while a change of theirs is being written (counted, so it goes
# when nobody waits on it).
_present: dict[int, Counter[int]] = {}
_present_written: dict[int, int] = {}
_present_locks: dict[int, list[Any]] = {}
# Per event loop, weakly (a loop's id may be reused once it is gone).
_watchers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Task[None]] = (
    weakref.WeakKeyDictionary()
)
PAGE = renders.PAGE
# A match stream's pass (read, render, send) that fails is tried again after PASS_RETRY_SECONDS
# (a database hiccup); after PASS_ATTEMPTS failures in a row the stream closes with 1011 rather
# than hold its slot and send nothing. The client resumes with ``since``.
PASS_ATTEMPTS = 3
PASS_RETRY_SECONDS = 0.5


_slots: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
    weakref.WeakKeyDictionary()
)


def _layer_slot() -> asyncio.Semaphore:
    """Bounds this process's concurrent group joins and leaves: thousands of streams dropping
    at once would otherwise ask the channel layer for thousands of Redis connections."""
    loop = asyncio.get_running_loop()
    slot = _slots.get(loop)
    if slot is None:
        slot = _slots[loop] = asyncio.Semaphore(100)
    return slot


async def _join(layer: Any, group: str, channel: str) -> None:
    async with _layer_slot():
        await layer.group_add(group, channel)


async def _leave(layer: Any, group: str, channel: str) -> None:
    # Best effort: a member left behind only costs the layer a message to a channel nobody
    # reads, until the group expires.
    try:
        async with _layer_slot():
            await layer.group_discard(group, channel)
    except Exception:
        log.warning("live: leaving group %s failed", group, exc_info=True)


class _Hub:
    """This process's one membership of each match's group on the channel layer: a relay note
    reaches the process once (one message on Redis, not one per connection) and is handed to
    every match stream of this process watching that match. The streams of 500 spectators
    cost the layer one delivery a version."""

    def __init__(self, layer: Any) -> None:
        self.layer = layer
        self.channel: str | None = None
        self.members: dict[str, set[MatchStream]] = {}
        self.joined: set[str] = set()
        # Joins and leaves of the layer's groups, one at a time: a leave and a join of the same
        # group must reach the layer in the order they were decided.
        self.lock = asyncio.Lock()
        self.task: asyncio.Task[None] | None = None

    async def join(self, group: str, stream: MatchStream) -> None:
        """Returns once the process is in ``group``: a note committed later reaches ``stream``."""
        self.members.setdefault(group, set()).add(stream)
        if group in self.joined:
            return
        async with self.lock:
            if self.channel is None:
                self.channel = await self.layer.new_channel()
            if self.task is None or self.task.done():
                self.task = asyncio.get_running_loop().create_task(
                    self._receive(self.channel), name="live-match-hub"
                )
            if group not in self.joined:
                await _join(self.layer, group, self.channel)
                self.joined.add(group)

    async def leave(self, group: str, stream: MatchStream) -> None:
        members = self.members.get(group)
        if members is None:
            return
        members.discard(stream)
        if members:
            return
        async with self.lock:
            if self.members.get(group) or group not in self.joined or self.channel is None:
                return
            del self.members[group]
            # Before the await: a join meanwhile waits for the lock and joins again.
            self.joined.discard(group)
            await _leave(self.layer, group, self.channel)
            if not self.members and self.task is not None:
                # No match stream left: the receive ends as a consumer's does when its client
                # goes (channels-redis allows one event loop's receives at a time per layer).
                self.task.cancel()
                self.task = None

    async def _receive(self, channel: str) -> None:
        while True:
            try:
                message = await self.layer.receive(channel)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("live: the match hub's receive failed")
                await asyncio.sleep(PASS_RETRY_SECONDS)
                continue
            group = relay.match_group(int(message.get("match_id") or 0))
            for stream in list(self.members.get(group, ())):
                try:
                    await stream.dispatch(message)
                except StopConsumer:
                    pass  # the stream ended itself (1011); its client's disconnect follows
                except Exception:
                    log.exception("live: handing a note to a stream failed")


_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Hub] = weakref.WeakKeyDictionary()


def _hub(layer: Any) -> _Hub:
    loop = asyncio.get_running_loop()
    hub = _hubs.get(loop)
    if hub is None or hub.layer is not layer:
        hub = _hubs[loop] = _Hub(layer)
    return hub


def _watch_started() -> None:
    loop = asyncio.get_running_loop()
    task = _watchers.get(loop)
    if task is None or task.done():
        _watchers[loop] = loop.create_task(_watch(), name="live-watch")


async def _watching_open(pair: tuple[int, int]) -> None:
    _watched[pair] += 1
    try:
        await _read_off_thread(watching.watching_mark)([pair])
    except Exception:  # the cache is down: the player may get a push too many, nothing worse
        log.exception("live: marking %s as watched failed", pair)


async def _watching_close(pair: tuple[int, int]) -> None:
    _watched[pair] -= 1
    if _watched[pair] > 0:
        return
    del _watched[pair]
    try:
        await _read_off_thread(watching.watching_clear)(*pair)
    except Exception:  # the mark lapses by itself within WATCH_SECONDS
        log.exception("live: clearing the watch of %s failed", pair)


def _present_add(user_id: int, match_id: int) -> None:
    _present.setdefault(user_id, Counter())[match_id] += 1


def _present_remove(user_id: int, match_id: int) -> None:
    held = _present.get(user_id)
    if held is None:
        return
    held[match_id] -= 1
    if held[match_id] <= 0:
        del held[match_id]
    if not held:
        del _present[user_id]


async def _presence_changed(layer: Any, user_id: int) -> None:
    """Bring the shared cache up to date with this process's connections of ``user_id`` (a
    write only when what the process holds of them changed: the first stream, a public match's
    stream, the last stream), and tell their followers when that changes their presence.
    Changes of one user are written one at a time, in the order they happen."""
    held = _present_locks.setdefault(user_id, [asyncio.Lock(), 0])
    held[1] += 1
    try:
        async with held[0]:
            counts = _present.get(user_id)
            want = max(counts) if counts else None
            if want == _present_written.get(user_id):
                return
            if want is None:
                _present_written.pop(user_id, None)
                before, after, _ = await _read_off_thread(presence.presence_leave)(user_id)
            else:
                _present_written[user_id] = want
                before, after = await _read_off_thread(presence.presence_set)(user_id, want or None)
            if before != after:
                await _presence_announce(layer, user_id, after)
    except Exception:  # the cache or the layer is down: presence is late, nothing worse
        log.exception("live: writing the presence of user %s failed", user_id)
    finally:
        held[1] -= 1
        if held[1] == 0:
            _present_locks.pop(user_id, None)


async def _presence_announce(layer: Any, user_id: int, seen: presence.Presence) -> None:
    """A ``presence`` message to every follower of ``user_id`` who may see it, through their
    user groups (any process's ``/ws/v1/me`` streams of theirs); none when the user hides it."""
    followers, body = await _read_off_thread(presence_selectors.presence_event)(user_id, seen)
    for follower in followers:
        await layer.group_send(
            relay.user_group(follower), {"type": "live.presence", "message": body}
        )


def _match_versions(match_ids: set[int]) -> dict[int, int]:
    ids = sorted(match_ids)
    out: dict[int, int] = {}
    for start in range(0, len(ids), 500):
        rows = Match.objects.filter(pk__in=ids[start : start + 500]).values_list("pk", "version")
        out.update(dict(rows))
    return out


async def _watch() -> None:
    """One task per process, every ``LIVE["RECHECK_SECONDS"]``: close the connections whose
    token was revoked or whose user was sanctioned, and wake any match stream behind its
    match's version (a note the channel layer dropped), all in a few queries however many
    connections are open."""
    standings = _read_off_thread(auth.standings)
    versions_of = _read_off_thread(_match_versions)
    renew = _read_off_thread(watching.watching_mark)
    renewed = present_renewed = time.monotonic()
    while True:
        await asyncio.sleep(float(settings.LIVE["RECHECK_SECONDS"]))
        if _watched and time.monotonic() - renewed >= watching.RENEW_SECONDS:
            renewed = time.monotonic()
            try:
                await renew(list(_watched))  # one write for every pair of the process
            except Exception:
                log.exception("live: renewing the watched matches failed")
        if _present_written and time.monotonic() - present_renewed >= presence.RENEW_SECONDS:
            present_renewed = time.monotonic()
            users = {user_id: match or None for user_id, match in _present_written.items()}
            try:
                # One read and one write for every user of the process, not one a connection.
                await _read_off_thread(presence.presence_renew)(users)
            except Exception:
                log.exception("live: renewing the presence of this process's users failed")
        streams = [s for s in _streams if s.caller is not None]
        if not streams:
            continue
        try:
            refused = await standings({s.caller.token_id for s in streams if s.caller})
            matches = {s.match_id for s in streams if isinstance(s, MatchStream)}
            versions = await versions_of(matches) if matches else {}
        except Exception:
            log.exception("live: re-checking open connections failed")
            continue
        for stream in streams:
            if stream.caller is None:
                continue
            # One connection's failure must not end the watcher: the others' revocations
            # and sanctions would go unenforced.
            try:
                code = refused.get(stream.caller.token_id)
                if code is not None:
                    await stream.refuse(code)
                elif isinstance(stream, MatchStream):
                    stream.behind(versions.get(stream.match_id, 0))
            except Exception:
                log.exception("live: re-checking a connection failed")


def _read_off_thread(fn: Any) -> Any:
    # Not thread-sensitive: reads of many connections run in parallel, each with its own
    # database connection, instead of queueing behind one thread.
    return database_sync_to_async(fn, thread_sensitive=False)


class _Stream(AsyncJsonWebsocketConsumer):
    """What both streams share: the query checked, the caller authenticated, the user's slot
    taken; and, whatever ends the connection, everything given back once."""

    # The query parameters the stream takes (auth.query_read); any other closes with 4400.
    QUERY: ClassVar[frozenset[str]] = frozenset({"ticket"})
    caller: auth.Caller | None = None
    query: auth.Query
    # The user whose slot this connection holds, while it holds one.
    _slot: int | None = None
    # A close frame was sent (or tried): never a second one, nor anything after it.
    _closed = False
    # (user, public match or 0) while the connection counts towards its user's presence.
    _presence: tuple[int, int] | None = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self._tasks: list[asyncio.Task[None]] = []
        self._groups: list[str] = []
        try:
            await super().__call__(scope, receive, send)
        finally:
            # The backstop: the consumer ended some way no handler saw (cancelled, the channel
            # layer's receive failing). Both are no-ops when disconnect already ran.
            self._free()
            await self._leave_groups()

    async def dispatch(self, message: Any) -> None:
        """Every handler (connect, a client frame, a group note, disconnect) runs here: one
        that raises closes the socket with 1011 and frees the slot, instead of the exception
        reaching the server, which drops the connection with no close code and no disconnect
        (the slot would stay taken for the life of the process)."""
        if self._closed and message.get("type") != "websocket.disconnect":
            # Closing (refused by the watcher, say): a note or frame still queued is dropped,
            # as the server would refuse anything sent after the close frame.
            return
        try:
            await super().dispatch(message)
        except StopConsumer:
            raise
        except OSError:  # uvicorn's ClientDisconnected: the client went away mid-send
            log.debug("live: %s lost its client", type(self).__name__, exc_info=True)
            await self._end(auth.INTERNAL_ERROR)
            raise StopConsumer from None
        except Exception:
            log.exception("live: %s failed on %s", type(self).__name__, message.get("type"))
            await self._end(auth.INTERNAL_ERROR)
            raise StopConsumer from None

    @classmethod
    async def encode_json(cls, content: Any) -> str:
        # DRF's encoder: datetimes and decimals come out exactly as in the HTTP bodies.
        return renders.encode(content)

    async def connect(self) -> None:
        self.caller = None
        # Accepted first: a WebSocket close code (4401, ...) can only follow an accepted upgrade.
        await self.accept()
        # The query before the credentials: a malformed request spends no ticket and no query.
        try:
            self.query = auth.query_read(self.scope, self.QUERY)
        except auth.BadQuery:
            await self._close(auth.BAD_REQUEST)
            return
        found = await _read_off_thread(auth.authenticate)(self.scope, self.query.ticket)
        if isinstance(found, int):
            await self._close(found)
            return
        if not self._slot_take(found.user.pk):
            await self._close(auth.TOO_MANY)
            return
        self.caller = found
        await relay.start()
        if not await self.opened(found.user):
            return
        _streams.add(self)
        _watch_started()
        if not self._closed:
            self._presence = (found.user.pk, self.presence_match())
            _present_add(*self._presence)
            await _presence_changed(self.channel_layer, found.user.pk)

    async def opened(self, user: User) -> bool:
        raise NotImplementedError

    def presence_match(self) -> int:
        """The public match this connection shows its user playing (0: none)."""
        return 0

    def _slot_take(self, user_pk: int) -> bool:
        """Take a slot of ``user_pk``'s, unless they have ``MAX_CONNECTIONS_PER_USER``
        already; at most one per connection."""
        if self._slot is not None:
            return self._slot == user_pk
        if _open[user_pk] >= int(settings.LIVE["MAX_CONNECTIONS_PER_USER"]):
            return False
        _open[user_pk] += 1
        self._slot = user_pk
        return True

    def _free(self) -> None:
        """Give back what the connection holds: its slot (once: ``_slot`` is cleared as it
        goes), its place on the watcher's list, its background tasks. Safe to call again."""
        _streams.discard(self)
        for task in getattr(self, "_tasks", []):
            if task is not asyncio.current_task():
                task.cancel()
        user_pk, self._slot = self._slot, None
        if user_pk is not None:
            _open[user_pk] -= 1
            if _open[user_pk] <= 0:
                del _open[user_pk]
        self.caller = None

    async def _join_group(self, group: str) -> None:
        await _join(self.channel_layer, group, self.channel_name)
        self._groups.append(group)

    async def _leave_groups(self) -> None:
        groups, self._groups = getattr(self, "_groups", []), []
        for group in groups:
            await _leave(self.channel_layer, group, self.channel_name)
        held, self._presence = self._presence, None
        if held is not None:
            _present_remove(*held)
            await _presence_changed(self.channel_layer, held[0])

    def _spawn(self, work: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """Run ``work()`` beside the consumer, for as long as the connection lasts; if it
        raises, the connection ends with 1011 like a handler that raised. (Called inside the
        task: a task cancelled before it starts leaves no coroutine never awaited.)"""

        async def guarded() -> None:
            try:
                await work()
            except Exception:
                log.exception("live: a task of %s failed", type(self).__name__)
                await self._end(auth.INTERNAL_ERROR)

        self._tasks.append(asyncio.create_task(guarded()))

    async def _close(self, code: int) -> None:
        """Send the close frame with ``code``, once; a client already gone is no error (its
        disconnect follows anyway)."""
        if self._closed:
            return
        self._closed = True
        try:
            await self.close(code=code)
        except Exception:
            log.debug("live: closing with %s failed", code, exc_info=True)

    async def _end(self, code: int) -> None:
        """Close with ``code`` and give everything back at once, not only when the client's
        disconnect comes (a client that never answers the close still frees its slot)."""
        await self._close(code)
        self._free()
        await self._leave_groups()

    async def refuse(self, code: int) -> None:
        await self._end(code)

    async def disconnect(self, code: int) -> None:
        self._free()
        await self._leave_groups()

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        # Server to client only; whatever a client sends (JSON or not) is ignored.
        return


class MatchStream(_Stream):
    """``/ws/v1/matches/{id}[?since=N]``: move items after ``since``, then the view; again
    after every committed version the viewer may see (a spectator's, as its cut moves on);
    and, to a seated viewer, the table's chat sent after the connection opened."""

    QUERY = frozenset({"since", "ticket"})
    # (user, match) while this seated player's connection counts as watching (live.watching).
    _watched: tuple[int, int] | None = None
    # Seated at a public match that is waiting or under way, as the first read found it: the
    # connection shows its user ``in_match`` (players.presence).
    playing_public = False

    def presence_match(self) -> int:
        return self.match_id if self.playing_public else 0

    async def opened(self, user: User) -> bool:
        self.match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        self.sent_version = self.query.since
        self.read_version = 0  # the match's real version at the last read (spectators lag it)
        self.sent_view = False
        # The newest version a note or the watcher told of: a pass reads at least that one.
        self.wanted = 0
        # Messages of the pass in progress not yet handed to the server (its bound: a page of
        # items and a view).
        self.unsent = 0
        self.user = user
        # The view's words (bot names) in the account's language, else the handshake's.
        headers = dict(self.scope.get("headers") or [])
        accept = headers.get(b"accept-language", b"").decode("latin-1")
        self.language = preferred_language(user.language, accept)
        self._wake = asyncio.Event()
        # Quick chat: only phrases sent after the connection opened, and only to the table.
        self._chat_due = False
        self.sent_chat = await _read_off_thread(chat_selectors.chat_last_id)(self.match_id)
        group = relay.match_group(self.match_id)
        await _hub(self.channel_layer).join(group, self)
        self._hub_groups = [group]
        self.seated = False
        try:
            await self._pass()
        except MatchNotFound:
            await self.refuse(auth.NOT_VISIBLE)
            return False
        if self.seated:
            self._watched = (user.pk, self.match_id)
            await _watching_open((user.pk, self.match_id))
        self._spawn(self._pump)
        return True

    async def _leave_groups(self) -> None:
        groups, self._hub_groups = getattr(self, "_hub_groups", []), []
        for group in groups:
            await _hub(self.channel_layer).leave(group, self)
        pair, self._watched = self._watched, None
        if pair is not None:
            await _watching_close(pair)
        await super()._leave_groups()

    async def live_note(self, note: relay.Note) -> None:
        # ``get``: a note from a process of the previous release (a rolling deploy) has no
        # ``chat_id``; its chat shows with the next chat note, or in ``GET /matches/{id}/chat``.
        version, chat_id = note["version"], note.get("chat_id")
        if note["kind"] == relay.VERSION and version is not None and version > self.sent_version:
            self.wanted = max(self.wanted, version)
            self._wake.set()
        elif note["kind"] == relay.CHAT and chat_id is not None and chat_id > self.sent_chat:
            self._chat_due = True
            self._wake.set()

    def behind(self, version: int) -> None:
        if version > max(self.sent_version, self.read_version):
            self.wanted = max(self.wanted, version)
            self._wake.set()

    async def _pump(self) -> None:
        # One pass at a time; notes arriving meanwhile fold into the next pass.
        failures = 0
        while True:
            await self._wake.wait()
            self._wake.clear()
            try:
                if self._chat_due:
                    self._chat_due = False
                    await self._chat_pass()
                await self._pass()
                failures = 0
            except MatchNotFound:  # no longer visible (e.g. left a private match)
                await self.refuse(await self._why_not_visible())
                return
            except OSError:  # the client went away mid-pass (uvicorn's ClientDisconnected)
                return
            except Exception:
                if self._closed:
                    return
                failures += 1
                if failures >= PASS_ATTEMPTS:
                    raise  # _spawn's guard: 1011, the slot given back
                log.exception("live: a stream pass failed for match %s", self.match_id)
                await asyncio.sleep(PASS_RETRY_SECONDS)
                self._wake.set()

    async def _why_not_visible(self) -> int:
        """The close code for a match that vanished from the caller's sight: a revoked token or
        a deleted account (whose seat went to a bot in the same commit) says so with its own
        code, as the periodic re-check would a moment later, rather than "not visible"."""
        if self.caller is None:
            return auth.NOT_VISIBLE
        token_id = self.caller.token_id
        try:
            refused = await _read_off_thread(auth.standings)({token_id})
        except Exception:
            log.exception("live: reading the standing of token %s failed", token_id)
            return auth.NOT_VISIBLE
        return int(refused.get(token_id, auth.NOT_VISIBLE))

    async def _pass(self) -> None:
        """Send what the client is missing: from the process's shared render of the newest
        version (``live.renders``) when it covers the items after the version sent last, else
        (and for the first view, which ``since`` may put far back) from a catch-up read of the
        connection's own."""
        if not self.sent_view:
            await self._own_pass()
            return
        read = await renders.latest(self.match_id, self.wanted)
        self.read_version = read.version
        seat = read.seat_of(self.user.pk)
        if seat is not None and read.version <= self.sent_version:
            return
        frame = await read.frame(seat, self.language, self.sent_version)
        if frame.version <= self.sent_version:
            return  # a spectator's cut has not moved
        items = frame.items_after(self.sent_version)
        if items is None:
            await self._own_pass()
            return
        await self._send_texts(items, frame.view, frame.version)

    async def _own_pass(self) -> None:
        read = await _read_off_thread(self._read)()
        if read is None:
            return
        version, items, view = read
        await self._send_texts(items, view, version)
        if view is None:
            self._wake.set()  # a page of a longer catch-up: the next pass goes on from here

    async def _send_texts(self, items: list[str], view: str | None, version: int) -> None:
        self.unsent = len(items) + (view is not None)
        for text in items:
            await self.send(text_data=text)
            self.unsent -= 1
        if view is not None:
            await self.send(text_data=view)
            self.unsent -= 1
            self.sent_view = True
        self.sent_version = max(self.sent_version, version)

    async def _chat_pass(self) -> None:
        for message in await _read_off_thread(self._read_chat)():
            await self.send_json(message)

    def _read_chat(self) -> list[dict[str, Any]]:
        """The chat messages sent to the table after the last one this stream sent (at first,
        the newest when it connected), for a seated viewer only (spectators do not see the
        table's chat), less those of senders the viewer blocked (``chat_log``, the same read as
        ``GET /matches/{id}/chat``)."""
        match, seat = selectors.match_for_viewer(self.match_id, self.user)
        if seat is None:
            return []
        out: list[dict[str, Any]] = []
        while True:
            page = chat_selectors.chat_log(match, self.user.pk, self.sent_chat, PAGE)
            # The item of ``GET /matches/{id}/chat`` (its ``id`` is that list's ``after``),
            # typed; no ``version``: chat is not a move.
            out.extend({"type": "chat", **chat_api.message_body(m)} for m in page)
            if page:
                self.sent_chat = page[-1].pk
            if len(page) < PAGE:
                return out

    def _read(self) -> tuple[int, list[str], str | None] | None:
        with translation.override(self.language):
            return self._read_in_language()

    def _read_in_language(self) -> tuple[int, list[str], str | None] | None:
        """The version read, the items after the version sent last and the view, encoded; or,
        when a page of items does not reach the version read, that page only (the version of
        its last item, no view); or None when the view was sent and nothing has moved since."""
        viewed = selectors.viewed_match_for(self.match_id, self.user)
        self.seated = viewed.seat_index is not None
        self.playing_public = (
            self.seated
            and viewed.header.visibility == Visibility.PUBLIC
            and viewed.header.status in (MatchStatus.WAITING, MatchStatus.ACTIVE)
        )
        self.read_version = viewed.header.live_version
        version = viewed.header.version  # an outsider's: the cut's
        if self.sent_view and version <= self.sent_version:
            return None
        # Only items up to the version read (``move_log`` stops there): a move committed after
        # the match row was read is left for the next pass, so the items and the view agree.
        page = bodies.move_log(viewed, self.sent_version, limit=PAGE)
        items = renders.with_reveals(
            [(item["version"], renders.move_message(self.match_id, item)) for item in page],
            renders.revealed(viewed, self.sent_version, page),
            self.sent_version,
        )
        if len(page) == PAGE and page[-1]["version"] < version:
            return page[-1]["version"], items, None
        view = renders.view_message(self.match_id, version, bodies.match_view(viewed))
        return version, items, view


class PlayerStream(_Stream):
    """``/ws/v1/me``: the caller's inbox events, as they commit, and the presence changes of
    the players they follow."""

    async def opened(self, user: User) -> bool:
        await self._join_group(relay.user_group(user.pk))
        return True

    async def live_presence(self, message: dict[str, Any]) -> None:
        # Built once by the process where the change happened, for the followers allowed to
        # see it (players.selectors.presence.presence_event).
        await self.send_json(message["message"])

    async def live_note(self, note: relay.Note) -> None:
        if note["kind"] in relay.TOURNAMENT_KINDS:
            await self.send_json(
                {
                    "type": "tournament",
                    "event": note["kind"],
                    "tournament_id": note["tournament_id"],
                    "round": note["round"],
                    "match_id": note["match_id"],
                }
            )
            return
        if note["kind"] not in relay.INBOX_KINDS:
            return
        mine = note["kind"] == "your_turn"
        await self.send_json(
            {
                "type": "inbox",
                "event": note["kind"],
                "match_id": note["match_id"],
                "version": note["version"],
                "is_my_turn": mine,
                "deadline": note["deadline"] if mine else None,
            }
        )


class NoSuchStream(AsyncJsonWebsocketConsumer):
    async def connect(self) -> None:
        await self.accept()
        await self.close(code=auth.NOT_VISIBLE)
