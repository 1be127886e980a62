"""The one replay: a state rebuilt from its ruleset, each round's deck and the ordered moves.

State is the replay of the log (architecture.md): the decks and the moves are the truth, and a
stored snapshot is a cache of ``rebuild``. The record format's replay (``record.py``) goes
through ``replay_round`` too, one round at a time, to report where a record is refused.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .cards import Card
from .errors import EngineError
from .moves import Move
from .rulesets import Ruleset
from .state import GameState, MovesRefused, apply_moves, new_match, start_round

Action = tuple[int, Move]  # (seat, move)


class ReplayRefused(Exception):
    """A move of a round was refused: ``state`` is the round up to it (the deck dealt and the
    moves before it applied), ``action`` its 0-based index in the round, ``error`` the reason."""

    def __init__(self, state: GameState, action: int, error: EngineError) -> None:
        super().__init__(f"action {action}: {error.code}: {error.message}")
        self.state = state
        self.action = action
        self.error = error


def replay_round(state: GameState, deck: Sequence[Card], actions: Iterable[Action]) -> GameState:
    """Deal ``deck`` onto ``state`` (which waits for a deal) and apply ``actions`` in order.

    ``actions`` is consumed lazily, so an iterator that parses as it goes may raise an
    EngineError (a malformed move) and have it reported at its own index. Raises ReplayRefused;
    a deck that is not 32 distinct cards, or a state not waiting for a deal, is a ValueError."""
    state = start_round(state, tuple(deck))
    try:
        return apply_moves(state, actions)
    except MovesRefused as refused:
        raise ReplayRefused(refused.state, refused.index, refused.error) from refused.error


def rebuild(
    ruleset: Ruleset,
    rounds: Iterable[tuple[Sequence[Card], Iterable[Action]]],
    *,
    dealer: int = 0,
    scores: tuple[int, int] = (0, 0),
    target: int | None = None,
) -> GameState:
    """The state after playing ``rounds`` ((deck, actions) in order) from a new match with
    these options. Raises ReplayRefused, or ValueError for a bad deck or a round too many."""
    state = new_match(ruleset, dealer=dealer, scores=scores, target=target)
    for deck, actions in rounds:
        state = replay_round(state, deck, actions)
    return state
