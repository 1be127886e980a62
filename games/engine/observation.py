"""What one seat may know (api.md "Hidden information never leaks").

``observation(state, seat)`` is the only view of a live round that leaves the engine: the API
renders it, bots decide from it. It holds the seat's own hand and what the table has seen, never
another seat's unplayed cards or the stock. ``seat=None`` is a spectator's view (no hand).
"""

from __future__ import annotations

from dataclasses import dataclass

from .bidding import Contract
from .cards import Card, cards_of
from .moves import Bid, Double, Move, Project
from .projects import available_projects, best_declaration
from .rules import legal_moves, may_declare, to_act
from .state import GameState, Phase, Trick


@dataclass(frozen=True, slots=True)
class PublicDeclaration:
    seat: int
    kinds: tuple[str, ...]
    projects: tuple[Project, ...] | None  # None while the cards are not public yet


@dataclass(frozen=True, slots=True)
class Observation:
    seat: int | None
    phase: Phase
    round_no: int
    dealer: int
    scores: tuple[int, int]
    target: int
    face_up: Card | None
    to_act: int | None
    hand: tuple[Card, ...]
    card_counts: tuple[int, int, int, int]
    calls: tuple[tuple[int, Bid], ...]
    doubles: tuple[tuple[int, Double], ...]
    contract: Contract | None
    multiplier: int
    doubler: int | None
    gahwa: bool
    locked: bool
    leader: int | None
    trick: tuple[Card, ...]
    tricks: tuple[Trick, ...]
    abnat: tuple[int, int]
    trick_counts: tuple[int, int]
    declarations: tuple[PublicDeclaration, ...]
    baloot: tuple[int, ...]
    legal_moves: tuple[Move, ...]
    projects_available: tuple[Project, ...]
    projects_suggested: tuple[Project, ...]
    winner: int | None
    # S21: between rounds, after a round ended by Sawa, the hands that were still held (they
    # are shown to everyone the moment the claim is judged); None otherwise.
    revealed_hands: tuple[tuple[Card, ...], ...] | None = None


def observation(state: GameState, seat: int | None) -> Observation:
    acting = to_act(state)
    mine = seat is not None and seat == acting
    hand = tuple(cards_of(state.hands[seat])) if seat is not None else ()
    trick1_done = len(state.tricks) >= 1
    declarations = tuple(
        PublicDeclaration(
            seat=s,
            kinds=tuple(p.kind.value for p in projects),
            # R30/api.md: other seats see a declaration's cards only once trick 1 is complete.
            projects=projects if (trick1_done or s == seat) else None,
        )
        for s, projects in state.declarations
    )
    available: tuple[Project, ...] = ()
    suggested: tuple[Project, ...] = ()
    if seat is not None and state.contract is not None and may_declare(state, seat):
        mode = state.contract.mode
        available = tuple(available_projects(state.hands[seat], mode))
        suggested = best_declaration(state.hands[seat], mode)
    return Observation(
        seat=seat,
        phase=state.phase,
        round_no=state.round_no,
        dealer=state.dealer,
        scores=state.scores,
        target=state.target,
        face_up=state.face_up,
        to_act=acting,
        hand=hand,
        card_counts=tuple(m.bit_count() for m in state.hands),  # type: ignore[arg-type]
        calls=tuple((s, m) for s, m in state.actions if isinstance(m, Bid)),
        doubles=tuple((s, m) for s, m in state.actions if isinstance(m, Double)),
        contract=state.contract,
        multiplier=state.multiplier,
        doubler=state.ladder.doubler if state.ladder else None,
        gahwa=state.gahwa,
        locked=state.locked,
        leader=state.leader if state.phase is Phase.PLAYING else None,
        trick=state.trick,
        tricks=state.tricks,
        abnat=state.abnat,
        trick_counts=state.trick_counts,
        declarations=declarations,
        baloot=(state.baloot_seat,)
        if state.baloot_announced and state.baloot_seat is not None
        else (),
        legal_moves=tuple(legal_moves(state)) if mine else (),
        projects_available=available,
        projects_suggested=suggested,
        winner=state.winner,
        revealed_hands=_revealed(state),
    )


def _revealed(state: GameState) -> tuple[tuple[Card, ...], ...] | None:
    if state.phase not in (Phase.DEAL, Phase.FINISHED) or not state.history:
        return None
    hands = state.history[-1].revealed_hands
    return None if hands is None else tuple(tuple(cards_of(h)) for h in hands)
