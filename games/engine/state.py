"""The engine's values: phases, round statuses, tricks, finished rounds, outcomes and the game
state itself. The rules that make and change them are in ``rules.py``; the fast replay of many
moves in ``replay.py``.

Every value here is immutable: nothing changes a state once it is handed out, so a refused move
changes nothing and one state can be shared by every reader. The values made at every move are
declared ``frozen_for_readers`` (frozen.py says why): type checkers hold them frozen, and at run
time they are slotted dataclasses. A rule makes the next state by copying the state before
(``draft_of``), changing the copy through its writable type (``StateDraft``) and handing it out
(``state_of``), after which nothing writes it again. A frozen dataclass would refuse those
writes, and the ways around that were measured worse: ``object.__setattr__`` per field costs
a quarter to a third of a move, an instance dictionary slows every attribute read on CPython
3.11, and changing the object's class hides what the object is.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Protocol

from .bidding import Bidding, Contract, Ladder, bidding_order, ladder_locked
from .cards import Card
from .frozen import frozen_for_readers
from .moves import Move, Project
from .rulesets import Ruleset
from .scoring import RoundResult


class Phase(StrEnum):
    DEAL = "deal"  # waiting for the next round's deck
    BIDDING = "bidding"
    DOUBLING = "doubling"
    PLAYING = "playing"
    FINISHED = "finished"


class RoundStatus(StrEnum):
    """A round's status in a record (record-format.md) and in the database (games.models)."""

    IN_PROGRESS = "in_progress"
    COMPLETE = "complete"
    REDEAL = "redeal"


@frozen_for_readers
class Trick:
    leader: int
    cards: tuple[Card, ...]  # in play order from the leader
    winner: int
    abnat: int  # trick 8 includes the last-trick 10


@frozen_for_readers
class RoundLog:
    """A finished round: everything a record or a score sheet needs."""

    number: int
    dealer: int
    deck: tuple[Card, ...]
    actions: tuple[tuple[int, Move], ...]
    contract: Contract | None
    multiplier: int
    gahwa: bool
    locked: bool
    tricks: tuple[Trick, ...]
    result: RoundResult
    status: RoundStatus
    scores_after: tuple[int, int]
    # S21: a round ended by Sawa shows the hands that were still held (masks), else None.
    revealed_hands: tuple[int, int, int, int] | None = None


@dataclass(frozen=True, slots=True)
class Outcome:
    winner: int  # team
    reason: str  # "target_reached" or "gahwa"
    scores: tuple[int, int]


@frozen_for_readers
class GameState:
    ruleset: Ruleset
    target: int
    scores: tuple[int, int]  # before the current round
    dealer: int
    phase: Phase
    round_no: int = 0  # 1-based number of the current (or last) round; redeals count
    deck: tuple[Card, ...] = ()
    hands: tuple[int, int, int, int] = (0, 0, 0, 0)  # bit masks
    face_up: Card | None = None
    bidding: Bidding | None = None
    contract: Contract | None = None
    ladder: Ladder | None = None
    leader: int = 0
    trick: tuple[Card, ...] = ()
    tricks: tuple[Trick, ...] = ()
    abnat: tuple[int, int] = (0, 0)
    trick_counts: tuple[int, int] = (0, 0)
    declarations: tuple[tuple[int, tuple[Project, ...]], ...] = ()
    baloot_seat: int | None = None
    baloot_announced: bool = False
    actions: tuple[tuple[int, Move], ...] = ()
    history: tuple[RoundLog, ...] = ()
    winner: int | None = None

    @property
    def multiplier(self) -> int:
        return round_multiplier(self.ladder)

    @property
    def gahwa(self) -> bool:
        return round_gahwa(self.ladder)

    @property
    def locked(self) -> bool:
        return round_locked(self.ladder, self.contract, self.ruleset)

    @property
    def order(self) -> tuple[int, ...]:
        return bidding_order(self.dealer)


class StateDraft(Protocol):
    """A ``GameState`` the rules are still making: its fields, writable. Only ``draft_of``
    makes one, and only the rules (rules.py, replay.py) hold one."""

    ruleset: Ruleset
    target: int
    scores: tuple[int, int]
    dealer: int
    phase: Phase
    round_no: int
    deck: tuple[Card, ...]
    hands: tuple[int, int, int, int]
    face_up: Card | None
    bidding: Bidding | None
    contract: Contract | None
    ladder: Ladder | None
    leader: int
    trick: tuple[Card, ...]
    tricks: tuple[Trick, ...]
    abnat: tuple[int, int]
    trick_counts: tuple[int, int]
    declarations: tuple[tuple[int, tuple[Project, ...]], ...]
    baloot_seat: int | None
    baloot_announced: bool
    actions: tuple[tuple[int, Move], ...]
    history: tuple[RoundLog, ...]
    winner: int | None


if TYPE_CHECKING:
    # A new, empty GameState, as a draft (the object is a GameState; its type says writable).
    def _new_draft(cls: type[GameState], /) -> StateDraft: ...

    def state_of(draft: StateDraft) -> GameState:
        """``draft``, finished: handed out as the state it is, never written again."""

else:
    _new_draft = object.__new__

    def state_of(draft):  # the identity: a draft is a GameState (no cast call per move)
        return draft


def draft_of(state: GameState) -> StateDraft:
    """A new state with ``state``'s fields, for a rule to change."""
    d = _new_draft(GameState)
    d.ruleset = state.ruleset
    d.target = state.target
    d.scores = state.scores
    d.dealer = state.dealer
    d.phase = state.phase
    d.round_no = state.round_no
    d.deck = state.deck
    d.hands = state.hands
    d.face_up = state.face_up
    d.bidding = state.bidding
    d.contract = state.contract
    d.ladder = state.ladder
    d.leader = state.leader
    d.trick = state.trick
    d.tricks = state.tricks
    d.abnat = state.abnat
    d.trick_counts = state.trick_counts
    d.declarations = state.declarations
    d.baloot_seat = state.baloot_seat
    d.baloot_announced = state.baloot_announced
    d.actions = state.actions
    d.history = state.history
    d.winner = state.winner
    return d


# --- What a round's ladder implies (one definition, read by GameState and by the rules) -----


def round_multiplier(ladder: Ladder | None) -> int:
    return 1 if ladder is None else ladder.multiplier


def round_gahwa(ladder: Ladder | None) -> bool:
    return ladder is not None and ladder.gahwa


def round_locked(ladder: Ladder | None, contract: Contract | None, ruleset: Ruleset) -> bool:
    if ladder is None or ladder.multiplier == 1 or contract is None:
        return False  # R23: only a doubled Hokum is ever locked
    return ladder_locked(ladder, contract, ruleset)
