"""Render once, send many: the match stream's messages for one committed version, read and
rendered once per perspective in this process, encoded once, and the same text handed to
every connection that sees the match that way.

A *read* (``Read``) is one read of the match row and its seats at one version, shared by all of
this process's connections to that match: the first connection that needs a version newer than
the one read starts the read and the others wait for it (one read in flight per match). A
*perspective* is what a render depends on besides the match: the viewer's seat (None: an
outsider, whose sight is the spectator's cut, one complete trick behind) and the language of the
view's words (bot names). A read renders each perspective once, when the first connection of
that perspective asks (``Read.frame``): the move items after a base version and the view, each
already encoded as the JSON text of its message (``Frame``). Every other connection of that
perspective takes the same texts: the items after the version it sent last, then the view.

A connection whose last version is before a frame's base (it connected with an old ``since``, or
fell behind by more than a frame covers) reads its own catch-up, as the stream always did
(``consumers.MatchStream``). Content still comes only from the selectors the HTTP views use
(``match_for_viewer``'s rule, ``viewed_match``, ``move_log``, ``match_view``), so hidden
information keeps one path: every render takes the viewer's ``ViewedMatch``, an immutable value
made from the read (the outsider's, at the cut, made once per read).

The cache is per process and per event loop, bounded (``MATCHES`` reads, the newest of each
match only). Each web process renders a version once per perspective, whichever relay told it
(the Redis channel layer or the table relay's tail): the notes stay ids and versions, never
content, so nothing rendered for one viewer can travel to another through the layer.
"""

from __future__ import annotations

import asyncio
import json
import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from channels.db import database_sync_to_async
from django.utils import translation
from rest_framework.utils.encoders import JSONEncoder

from games.api import bodies
from games.errors import MatchNotFound
from games.models import Match, Seat, Visibility
from games.selectors import ViewedMatch, viewed_match

# The newest read of at most this many matches is kept per process (LRU).
MATCHES = 1024
# A frame covers the items after the version its first connection sent last, and at least this
# many versions back from there: a connection that skipped a version or two (a note folded
# into the next) still finds its items in the shared frame.
WINDOW = 4
# Items per page of the log (and at most this many items in one catch-up pass).
PAGE = 500

# What one viewer's render depends on: the seat (None: an outsider) and the language.
Perspective = tuple[int | None, str]


def encode(content: Any) -> str:
    """A message's JSON text, with DRF's encoder: datetimes and decimals exactly as in the HTTP
    bodies."""
    return json.dumps(content, cls=JSONEncoder, ensure_ascii=False)


def move_message(match_id: int, item: dict[str, Any]) -> str:
    return encode({"type": "move", "match_id": match_id, "item": item})


def view_message(match_id: int, version: int, view: dict[str, Any]) -> str:
    return encode({"type": "view", "match_id": match_id, "version": version, "view": view})


def reveal_message(match_id: int, version: int, items: list[dict[str, Any]]) -> str:
    return encode({"type": "reveal", "match_id": match_id, "version": version, "items": items})


@dataclass(frozen=True, slots=True)
class Revealed:
    """A ``reveal`` message: one round's declarations, public since ``version`` (the move that
    completed the round's trick 1), encoded. A reader who was sent a move item at ``first`` or
    later before ``version`` holds at least one of them hidden and needs it; one who was not
    gets them, if at all, as move items already showing their cards."""

    version: int
    first: int
    text: str

    def wanted_after(self, after: int) -> bool:
        return self.first <= after < self.version


def revealed(viewed: ViewedMatch, after: int, items: list[dict[str, Any]]) -> list[Revealed]:
    """The reveals of the declarations made public by one of ``items`` (the move items after
    version ``after``, rendered for the viewer of ``viewed``). Only a card play completes a
    trick, so a run of items without one reveals nothing and costs no query."""
    if not any(item["type"] == "play" for item in items):
        return []
    match_id, until = viewed.header.id, items[-1]["version"]
    return [
        Revealed(version, first, reveal_message(match_id, version, shown))
        for version, first, shown in bodies.declarations_revealed(viewed, after, until)
    ]


def with_reveals(
    items: list[tuple[int, str]] | tuple[tuple[int, str], ...],
    reveals: list[Revealed] | tuple[Revealed, ...],
    after: int,
) -> list[str]:
    """The texts of the move items after ``after``, each reveal a reader at ``after`` needs
    placed right before the item of the move that made it public: a client that received that
    item has received the reveal too, so resuming with ``since`` = the last move item's version
    never skips one."""
    wanted = [r for r in reveals if r.wanted_after(after)]
    out: list[str] = []
    for version, text in items:
        if version <= after:
            continue
        while wanted and wanted[0].version <= version:
            out.append(wanted.pop(0).text)
        out.append(text)
    # Not reached for a reveal inside the items (its move is one of them); kept for safety so
    # a reveal is never dropped.
    out.extend(r.text for r in wanted)
    return out


@dataclass(frozen=True, slots=True)
class Frame:
    """One perspective's messages at one read: the move items with versions in
    ``(base, version]`` and the view at ``version`` (a spectator's: the cut's), encoded."""

    version: int
    base: int
    items: tuple[tuple[int, str], ...]  # (the item's version, its message's text)
    view: str
    # The declarations made public by a move in ``(base, version]``: each goes to the readers
    # that hold them hidden (``Revealed.wanted_after``), so the texts stay shared.
    reveals: tuple[Revealed, ...] = ()

    def items_after(self, after: int) -> list[str] | None:
        """The messages of the items after version ``after``, with the reveals a reader at
        ``after`` needs; None if this frame does not cover them all (``after`` is before its
        base)."""
        if after < self.base:
            return None
        return with_reveals(self.items, self.reveals, after)


@dataclass(eq=False)
class Read:
    """One read of a match (its row and seats) at one version, shared by the connections of
    this process; it renders each perspective once."""

    match: Match
    seats: list[Seat]
    frames: dict[Perspective, asyncio.Future[Frame]] = field(default_factory=dict)
    _outsider: ViewedMatch | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def version(self) -> int:
        return int(self.match.version)

    def seat_of(self, user_id: int) -> Seat | None:
        """The user's seat, None for an outsider; ``MatchNotFound`` for an outsider of a
        private match (``selectors.match_for_viewer``'s rule)."""
        mine = next((s for s in self.seats if s.user_id == user_id), None)
        if mine is None and self.match.visibility == Visibility.PRIVATE:
            raise MatchNotFound()
        return mine

    def _as_seen_by(self, seat: Seat | None) -> ViewedMatch:
        if seat is not None:
            return viewed_match(self.match, seat)  # the read's own state: no query, no replay
        with self._lock:  # render threads of several languages may ask at once
            if self._outsider is None:
                # The cut costs a replay of the round and a query: once per read.
                self._outsider = viewed_match(self.match, None)
            return self._outsider

    async def frame(self, seat: Seat | None, language: str, after: int) -> Frame:
        """The frame of ``(seat, language)``, rendered by the first connection that asks, with
        its items after ``after`` (and ``WINDOW`` versions before it); the others wait for it."""
        key: Perspective = (seat.index if seat is not None else None, language)
        pending = self.frames.get(key)
        if pending is None or (pending.done() and (pending.cancelled() or pending.exception())):
            base = max(0, after - WINDOW)
            pending = asyncio.ensure_future(_render_off_thread(self, seat, language, base))
            self.frames[key] = pending
        return await asyncio.shield(pending)

    def render(self, seat: Seat | None, language: str, base: int) -> Frame:
        """Renders one perspective (in a thread: the log is a query)."""
        with translation.override(language):
            viewed = self._as_seen_by(seat)
            match_id, version = viewed.header.id, viewed.header.version
            items: list[tuple[int, str]] = []
            reveals: list[Revealed] = []
            after = base
            while True:
                page = bodies.move_log(viewed, after, limit=PAGE)
                items.extend((item["version"], move_message(match_id, item)) for item in page)
                reveals.extend(revealed(viewed, after, page))
                if len(page) < PAGE:
                    break
                after = page[-1]["version"]
            view = view_message(match_id, version, bodies.match_view(viewed))
        return Frame(
            version=version, base=base, items=tuple(items), view=view, reveals=tuple(reveals)
        )


# Counted by the tests (one render serves a perspective's connections).
def _render(read: Read, seat: Seat | None, language: str, base: int) -> Frame:
    return read.render(seat, language, base)


async def _render_off_thread(read: Read, seat: Seat | None, language: str, base: int) -> Frame:
    return await database_sync_to_async(_render, thread_sensitive=False)(read, seat, language, base)


def _read(match_id: int) -> Read | None:
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return None
    return Read(match=match, seats=match.seat_list())


class _Cache:
    def __init__(self) -> None:
        self.reads: OrderedDict[int, Read] = OrderedDict()
        self.reading: dict[int, asyncio.Future[Read | None]] = {}

    def keep(self, match_id: int, read: Read) -> None:
        known = self.reads.get(match_id)
        if known is None or read.version >= known.version:
            self.reads[match_id] = read
        self.reads.move_to_end(match_id)
        while len(self.reads) > MATCHES:
            self.reads.popitem(last=False)

    async def read(self, match_id: int) -> Read | None:
        pending = self.reading.get(match_id)
        if pending is None:
            pending = asyncio.ensure_future(
                database_sync_to_async(_read, thread_sensitive=False)(match_id)
            )
            self.reading[match_id] = pending

            def done(task: asyncio.Future[Read | None]) -> None:
                if self.reading.get(match_id) is task:
                    del self.reading[match_id]
                if not task.cancelled() and task.exception() is None:
                    found = task.result()
                    if found is None:
                        self.reads.pop(match_id, None)
                    else:
                        self.keep(match_id, found)

            pending.add_done_callback(done)
        return await asyncio.shield(pending)


_caches: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Cache] = weakref.WeakKeyDictionary()


def _cache() -> _Cache:
    loop = asyncio.get_running_loop()
    cache = _caches.get(loop)
    if cache is None:
        cache = _caches[loop] = _Cache()
    return cache


async def latest(match_id: int, at_least: int) -> Read:
    """This process's read of the match at version ``at_least`` or newer: the one already made
    if it is that new, else the one in flight, else a new one. ``MatchNotFound`` if the match is
    gone."""
    cache = _cache()
    known = cache.reads.get(match_id)
    if known is not None and known.version >= at_least:
        cache.reads.move_to_end(match_id)
        return known
    found = await cache.read(match_id)
    if found is not None and found.version < at_least:
        # The read in flight may have started before ``at_least`` committed: once more.
        found = await cache.read(match_id)
    if found is None:
        raise MatchNotFound()
    return found


def forget() -> None:
    """Drops this loop's reads (tests)."""
    _caches.pop(asyncio.get_running_loop(), None)
