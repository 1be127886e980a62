"""Spectating: an outsider sees an active public match delayed by one complete trick.

The rule (the issue's point 8, written down in docs/clients.md "Spectating"): within the round
being played, a spectator sees

- nothing of the round but the deal's public facts (dealer, face-up card, commitment) until
  trick 1 is complete;
- once trick 1 is complete, the bidding and doubling (every call) and nothing of trick 1;
- once trick ``k`` (k >= 2) is complete, everything up to the end of trick ``k - 1``: a trick's
  cards (and the declarations and Baloot made in it) only once the following trick is complete.

A finished round is all public: when a round ends everything in it is shown (``previous_round``
and the score sheet), and an ended match is shown as it is. Seated players see everything live.

The delay lives here and only here: ``match_for_viewer`` hands an outsider of an active match a
*spectator's copy* of the match row (``spectator_copy``): its snapshot, ``version``,
``to_act``, ``move_count`` and ``updated_at`` are those of the cut, its ``deadline`` null. The
view, the move log (which stops at the copy's ``version``), the ETag and the match stream all
read that copy through the same selectors, so they agree, and none of them can tell a spectator
that something happened after the cut. The copy is never saved (``save`` refuses).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from games import engine
from games.engine.codec import LIVE_PHASES
from games.models import Match, MatchStatus, Move


@dataclass(frozen=True, slots=True)
class Cut:
    """Where a spectator's sight of the current round ends: the first ``actions`` moves of
    the round are visible, the state after them is ``state``."""

    actions: int
    state: engine.GameState


def visible_actions(state: engine.GameState) -> int:
    """How many of the current round's moves a spectator may see (the rule above)."""
    complete = len(state.tricks)
    if complete == 0:
        return 0
    actions = state.actions
    if complete == 1:
        # The calls: every move before the first card or declaration of trick 1.
        return next(
            (i for i, (_, m) in enumerate(actions) if isinstance(m, engine.Play | engine.Declare)),
            len(actions),
        )
    wanted = 4 * (complete - 1)  # the plays up to the end of trick complete - 1
    plays = 0
    for i, (_, move) in enumerate(actions):
        if isinstance(move, engine.Play):
            plays += 1
            if plays == wanted:
                return i + 1
    return len(actions)  # pragma: no cover - a complete trick holds four plays


def _round_start(state: engine.GameState) -> engine.GameState:
    """The current round as dealt, before its first move (pure)."""
    before = engine.GameState(
        ruleset=state.ruleset,
        target=state.target,
        scores=state.scores,
        dealer=state.dealer,
        phase=engine.Phase.DEAL,
        round_no=state.round_no - 1,
        history=state.history,
    )
    return engine.start_round(before, state.deck)


def round_cut(state: engine.GameState) -> Cut:
    """The current round replayed up to the spectator's cut, from its deck (pure)."""
    visible = visible_actions(state)
    if visible == len(state.actions):
        return Cut(visible, state)
    cut = _round_start(state)
    for seat, move in state.actions[:visible]:
        cut = engine.apply(cut, seat, move)
    return Cut(visible, cut)


def cut_to_act(state: engine.GameState, visible: int) -> int | None:
    """Whose turn it was at the spectator's cut (``visible`` from ``visible_actions``),
    without replaying the round: a cut inside the round falls on a trick's start (trick 1's
    after the calls, trick ``k``'s once trick ``k`` is complete), where the seat to act is that
    trick's leader, which the completed trick records; before trick 1 is complete it is the
    round's first bidder. ``round_cut(state)`` gives the same seat (tests/games)."""
    if visible == len(state.actions):
        return engine.to_act(state)
    complete = len(state.tricks)
    if complete == 0:
        return engine.to_act(_round_start(state))
    return state.tricks[complete - 1].leader


def _refuse_save(*args: Any, **kwargs: Any) -> None:
    raise RuntimeError("a spectator's copy of a match is never saved")


def _delayed(match: Match) -> Match:
    """An unsaveable copy of ``match`` with no clock, its header still the live one."""
    delayed = copy.copy(match)
    delayed.__dict__["_live_version"] = match.version
    # No clock for spectators: the deadline running now belongs to a turn they cannot see.
    delayed.deadline = None
    setattr(delayed, "save", _refuse_save)  # noqa: B010 - an instance attribute on purpose
    setattr(delayed, "delete", _refuse_save)  # noqa: B010
    return delayed


def _cut_header(
    delayed: Match, seq: int, row: tuple[int, datetime] | None, to_act: int | None
) -> None:
    """Set the copy's version, move count, seat to act and time to those of the cut, the
    ``seq``-th move of the match (0: none yet), whose (version, created_at) is ``row``."""
    if row is None:  # pragma: no cover - the log holds every move the state replays
        raise RuntimeError(f"match {delayed.pk} has no move {seq}")
    version, created_at = row
    if seq <= 0:
        # Nothing of the match to show yet: the version before its first move.
        version, created_at = version - 1, delayed.started_at or delayed.created_at
    delayed.version = version
    delayed.move_count = max(seq, 0)
    delayed.to_act = to_act
    delayed.updated_at = created_at


def spectator_copy(match: Match) -> Match:
    """``match`` as an outsider may see it: an active match at the spectator's cut, any other
    one as it is (the same object)."""
    if match.status != MatchStatus.ACTIVE:
        return match
    state = match.load_state()
    if state is None or state.phase not in LIVE_PHASES:
        return match
    cut = round_cut(state)
    hidden = len(state.actions) - cut.actions
    delayed = _delayed(match)
    if hidden == 0:
        return delayed
    seq = match.move_count - hidden  # the last visible move (0: none in the match)
    row = (
        Move.objects.filter(match_id=match.pk, seq=max(seq, 1))
        .values_list("version", "created_at")
        .first()
    )
    snapshot = b"spectator"
    delayed.snapshot = snapshot
    delayed.__dict__["_state_cache"] = (snapshot, cut.state)
    _cut_header(delayed, seq, row, engine.to_act(cut.state))
    return delayed


def _moves_at(pairs: list[tuple[int, int]]) -> dict[tuple[int, int], tuple[int, datetime]]:
    """(version, created_at) of each (match id, seq) move, in one query: an OR of exact pairs
    of the log's unique (match, seq) index, one index probe each (SQLite's MULTI-INDEX OR,
    PostgreSQL's BitmapOr). Written as SQL because Django compiling the same OR of a hundred
    Q pairs cost more (about 15 ms a page) than running it; a row-value IN list would be
    shorter, but SQLite scans the whole log for it."""
    table = Move._meta.db_table
    where = " OR ".join(["(match_id = %s AND seq = %s)"] * len(pairs))
    query = Move.objects.raw(
        # Only the table name is formatted in; the pairs are parameters.
        f"SELECT id, match_id, seq, version, created_at FROM {table} WHERE {where}",
        [value for pair in pairs for value in pair],
    )
    return {(move.match_id, move.seq): (move.version, move.created_at) for move in query}


def spectator_rows(matches: Sequence[Match]) -> list[Match]:
    """``matches`` as an outsider sees them in a list (``GET /matches/live``, the other
    lists): the header of ``spectator_copy`` (version, to_act, move count and updated_at of
    the cut, no deadline) for each active one, from one query for all their cut moves and no
    replay (``cut_to_act``). A row shows no state, so a copy whose cut is behind carries
    none: its ``snapshot`` is None, and the view, the log and the stream read
    ``spectator_copy`` instead."""
    rows = list(matches)
    cuts: dict[int, tuple[Match, int, int | None]] = {}
    for i, match in enumerate(rows):
        if match.status != MatchStatus.ACTIVE:
            continue
        state = match.load_state()
        if state is None or state.phase not in LIVE_PHASES:
            continue
        delayed = rows[i] = _delayed(match)
        visible = visible_actions(state)
        hidden = len(state.actions) - visible
        if hidden:
            delayed.snapshot = None
            delayed.__dict__.pop("_state_cache", None)
            cuts[i] = (delayed, match.move_count - hidden, cut_to_act(state, visible))
    if cuts:
        found = _moves_at([(delayed.pk, max(seq, 1)) for delayed, seq, _ in cuts.values()])
        for delayed, seq, to_act in cuts.values():
            _cut_header(delayed, seq, found.get((delayed.pk, max(seq, 1))), to_act)
    return rows


def is_spectator_copy(match: Match) -> bool:
    return match.__dict__.get("save") is _refuse_save


def live_version(match: Match) -> int:
    """The match's real version, also for a spectator's copy (whose ``version`` is the cut's):
    what a stream compares its periodic re-check with, so that it re-reads only when the
    match moved on, not on every re-check while the cut stays behind."""
    return int(match.__dict__.get("_live_version", match.version))
