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

The rule lives here and only here: where the cut falls (``visible_actions``), the round
replayed to it (``round_cut``), whose turn it was there (``cut_to_act``) and the cut's move
in the log (``cut_move``, ``cut_moves``). ``viewing`` builds from them what an outsider's
render takes, a ``ViewedMatch`` whose header (version, ``to_act``, move count, ``updated_at``)
and state are those of the cut and whose deadline is null. The view, the move log (which stops
at the header's ``version``), the ETag and the match stream all read that value, so they agree,
and none of them can tell a spectator that something happened after the cut.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from games import engine
from games.engine.codec import record_format
from games.models import Move

# The phases of a round being played (the only ones a cut can fall inside): the engine's one
# definition, re-exported for the selectors.
LIVE_PHASES = record_format.LIVE_PHASES


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


def cut_move(match_id: int, seq: int) -> tuple[int, datetime] | None:
    """(version, created_at) of the match's ``seq``-th move, the last one at a cut (for
    ``seq`` 0, nothing visible yet: the first move's, which the header steps back from)."""
    return (
        Move.objects.filter(match_id=match_id, seq=max(seq, 1))
        .values_list("version", "created_at")
        .first()
    )


def cut_moves(pairs: Sequence[tuple[int, int]]) -> dict[tuple[int, int], tuple[int, datetime]]:
    """``cut_move`` for each (match id, seq) pair, in one query, keyed by the pairs given."""
    found = _moves_at(list(dict.fromkeys((match_id, max(seq, 1)) for match_id, seq in pairs)))
    return {
        (match_id, seq): found[(match_id, max(seq, 1))]
        for match_id, seq in pairs
        if (match_id, max(seq, 1)) in found
    }


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
