"""The game state and the engine's core API: deal, legal moves, apply, outcome.

State is immutable: ``apply`` returns a new ``GameState`` and never changes the one it was
given, so a refused move changes nothing. Randomness never enters: the caller supplies each
round's shuffled deck (``start_round``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from .bidding import (
    REDEAL,
    Bidding,
    Contract,
    Ladder,
    bid_apply,
    bid_legal,
    bidding_order,
    bidding_start,
    doubling_allowed,
    ladder_apply,
    ladder_legal,
    ladder_locked,
    ladder_start,
    normalize_double,
)
from .cards import Card, cards_of
from .errors import IllegalMove, MalformedMove
from .moves import Bid, Declare, Double, Move, Play, Project, Sawa
from .play import LAST_TRICK_BONUS, TRICKS_PER_ROUND, close_trick, legal_play_mask, refusal_code
from .projects import baloot_holder, baloot_pair, validate_declaration
from .rulesets import GAMERULES, Ruleset
from .sawa import remaining_abnat, sawa_holds, sawa_open
from .scoring import REDEAL_RESULT, RoundResult, SawaClaim, score_round


class Phase(StrEnum):
    DEAL = "deal"  # waiting for the next round's deck
    BIDDING = "bidding"
    DOUBLING = "doubling"
    PLAYING = "playing"
    FINISHED = "finished"


class RoundStatus(StrEnum):
    COMPLETE = "complete"
    REDEAL = "redeal"
    IN_PROGRESS = "in_progress"


@dataclass(frozen=True, slots=True)
class Trick:
    leader: int
    cards: tuple[Card, ...]  # in play order from the leader
    winner: int
    abnat: int  # trick 8 includes the last-trick 10


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
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
        return self.ladder.multiplier if self.ladder else 1

    @property
    def gahwa(self) -> bool:
        return bool(self.ladder and self.ladder.gahwa)

    @property
    def locked(self) -> bool:
        return bool(
            self.ladder
            and self.contract
            and ladder_locked(self.ladder, self.contract, self.ruleset)
        )

    @property
    def order(self) -> tuple[int, ...]:
        return bidding_order(self.dealer)


def new_match(
    ruleset: Ruleset = GAMERULES,
    *,
    dealer: int = 0,
    scores: tuple[int, int] = (0, 0),
    target: int | None = None,
) -> GameState:
    """A match waiting for its first deck (``start_round``)."""
    if dealer not in range(4):
        raise ValueError("dealer must be 0-3")
    return GameState(
        ruleset=ruleset,
        target=ruleset.default_target if target is None else target,
        scores=(int(scores[0]), int(scores[1])),
        dealer=dealer,
        phase=Phase.DEAL,
    )


def start_round(state: GameState, deck: tuple[Card, ...] | list[Card]) -> GameState:
    """Deal ``deck`` (D[0..31], already shuffled by the caller) as R8 fixes it."""
    if state.phase is not Phase.DEAL:
        raise ValueError(f"cannot deal in phase {state.phase}")
    deck = tuple(deck)
    if sorted(deck) != list(range(32)):
        raise ValueError("a deck is 32 distinct cards")
    hands = [0, 0, 0, 0]
    for i, seat in enumerate(bidding_order(state.dealer)):
        for card in deck[3 * i : 3 * i + 3] + deck[12 + 2 * i : 14 + 2 * i]:
            hands[seat] |= 1 << card
    return replace(
        state,
        phase=Phase.BIDDING,
        round_no=state.round_no + 1,
        deck=deck,
        hands=(hands[0], hands[1], hands[2], hands[3]),
        face_up=deck[20],
        bidding=bidding_start(state.dealer),
    )


def to_act(state: GameState) -> int | None:
    """The seat whose move it is, or None between rounds and after the match."""
    phase = state.phase
    if phase is Phase.PLAYING:
        return (state.leader + len(state.trick)) % 4
    if phase is Phase.BIDDING:
        assert state.bidding is not None
        return state.bidding.to_act
    if phase is Phase.DOUBLING:
        assert state.ladder is not None
        return state.ladder.to_act
    return None


def legal_play_cards(state: GameState, seat: int) -> int:
    contract = state.contract
    assert contract is not None
    return legal_play_mask(
        state.hands[seat],
        state.trick,
        contract.trump,
        state.locked,
        state.ruleset.compulsory_trumping,
    )


def may_sawa(state: GameState) -> bool:
    """S20: the ruleset has Sawa and the seat to act leads a trick holding at most 4 cards."""
    if not state.ruleset.sawa or state.phase is not Phase.PLAYING:
        return False
    seat = (state.leader + len(state.trick)) % 4
    return sawa_open(leading=not state.trick, cards_in_hand=state.hands[seat].bit_count())


def legal_moves(state: GameState) -> list[Move]:
    """Every legal bid, doubling call or play for the seat to act (declarations are checked
    when made, not listed, as in the record format), and last Sawa when it is open (S20)."""
    phase = state.phase
    if phase is Phase.PLAYING:
        seat = (state.leader + len(state.trick)) % 4
        plays: list[Move] = [Play(c) for c in cards_of(legal_play_cards(state, seat))]
        if may_sawa(state):
            plays.append(Sawa())
        return plays
    if phase is Phase.BIDDING:
        assert state.bidding is not None and state.face_up is not None
        return list(bid_legal(state.bidding, state.face_up >> 3, state.ruleset, state.face_up))
    if phase is Phase.DOUBLING:
        assert state.ladder is not None and state.contract is not None
        return list(ladder_legal(state.ladder, state.contract, state.ruleset))
    return []


def may_declare(state: GameState, seat: int) -> bool:
    """R30: only on the seat's own first turn of trick 1, and only once."""
    return (
        state.phase is Phase.PLAYING
        and not state.tricks
        and to_act(state) == seat
        and all(s != seat for s, _ in state.declarations)
    )


def apply(state: GameState, seat: int, move: Move) -> GameState:
    """Apply ``move`` by ``seat``; raise MalformedMove or IllegalMove and change nothing."""
    if not isinstance(seat, int) or isinstance(seat, bool) or seat not in range(4):
        raise MalformedMove(f"not a seat: {seat!r}")
    if state.phase in (Phase.DEAL, Phase.FINISHED):
        raise MalformedMove("the round is over")
    if isinstance(move, Sawa) and not state.ruleset.sawa:
        raise MalformedMove("this ruleset has no Sawa")  # S20: an unknown action type
    if seat != to_act(state):
        raise IllegalMove("not_your_turn", f"it is seat {to_act(state)}'s turn")
    actions = (*state.actions, (seat, move))
    if isinstance(move, Play):
        if state.phase is not Phase.PLAYING:
            raise IllegalMove("illegal_call", "cards are played only after bidding and doubling")
        return _play(state, seat, move.card, actions)
    if isinstance(move, Bid):
        if state.phase is not Phase.BIDDING:
            raise IllegalMove("illegal_call", "the bidding is over")
        return _bid(state, move, actions)
    if isinstance(move, Double):
        if state.phase is not Phase.DOUBLING:
            raise IllegalMove("illegal_call", "doubling calls are made only after the bidding")
        assert state.ladder is not None and state.contract is not None
        move = normalize_double(move, state.ladder, state.contract, state.ruleset)
        return _double(state, move, (*state.actions, (seat, move)))
    if isinstance(move, Declare):
        return _declare(state, seat, move, actions)
    if isinstance(move, Sawa) and state.ruleset.sawa:
        if not may_sawa(state):
            raise IllegalMove(
                "illegal_call", "Sawa is called only to lead a trick, with at most 4 cards"
            )
        return _sawa(state, seat, actions)
    raise MalformedMove(f"not a move: {move!r}")


def _bid(state: GameState, bid: Bid, actions: tuple[tuple[int, Move], ...]) -> GameState:
    assert state.bidding is not None and state.face_up is not None
    result = bid_apply(state.bidding, bid, state.face_up, state.ruleset)
    if isinstance(result, Bidding):
        return replace(state, bidding=result, actions=actions)
    if result == REDEAL:
        return _end_round(replace(state, actions=actions), None)
    assert isinstance(result, Contract)
    return _after_bidding(state, result, actions)


def _after_bidding(
    state: GameState, contract: Contract, actions: tuple[tuple[int, Move], ...]
) -> GameState:
    # R9: stock cards in bidding order, 3 to each non-recipient, 2 (+ face-up) to the recipient.
    deck = state.deck
    hands = list(state.hands)
    position = 21
    for seat in bidding_order(state.dealer):
        count = 2 if seat == contract.recipient else 3
        for card in deck[position : position + count]:
            hands[seat] |= 1 << card
        position += count
    hands[contract.recipient] |= 1 << deck[20]

    baloot_seat = baloot_holder(hands, contract.trump)  # R32: Hokum only, one player's K and Q

    if doubling_allowed(contract, state.scores, state.ruleset):
        ladder = ladder_start(contract)
        phase = Phase.DOUBLING
    else:
        ladder = Ladder(rung=None, queue=())
        phase = Phase.PLAYING
    return replace(
        state,
        phase=phase,
        hands=(hands[0], hands[1], hands[2], hands[3]),
        bidding=None,
        contract=contract,
        ladder=ladder,
        leader=first_leader(state.ruleset, contract, state.dealer),
        baloot_seat=baloot_seat,
        actions=actions,
    )


def first_leader(ruleset: Ruleset, contract: Contract, dealer: int) -> int:
    """Who leads trick 1: the declarer (R25), or the dealer's right (S4)."""
    return (dealer + 1) % 4 if ruleset.first_lead_dealer_right else contract.declarer


def _double(state: GameState, double: Double, actions: tuple[tuple[int, Move], ...]) -> GameState:
    assert state.ladder is not None and state.contract is not None
    ladder = ladder_apply(state.ladder, double, state.contract, state.ruleset)
    phase = Phase.DOUBLING if ladder.rung is not None else Phase.PLAYING
    return replace(state, ladder=ladder, phase=phase, actions=actions)


def _declare(
    state: GameState, seat: int, declare: Declare, actions: tuple[tuple[int, Move], ...]
) -> GameState:
    if not may_declare(state, seat):
        raise IllegalMove(
            "invalid_project",
            "projects are declared once, on your first turn of trick 1, before you play",
        )
    assert state.contract is not None
    validate_declaration(state.hands[seat], declare.projects, state.contract.mode)
    return replace(
        state, declarations=(*state.declarations, (seat, declare.projects)), actions=actions
    )


def _play(
    state: GameState, seat: int, card: Card, actions: tuple[tuple[int, Move], ...]
) -> GameState:
    contract = state.contract
    assert contract is not None
    bit = 1 << card
    hand = state.hands[seat]
    if not hand & bit:
        raise IllegalMove("card_not_held", "that card is not in your hand")
    if not legal_play_cards(state, seat) & bit:
        code = refusal_code(hand, state.trick, contract.trump, card)
        raise IllegalMove(code, _REFUSALS[code])
    hands = list(state.hands)
    hands[seat] = hand & ~bit
    baloot_announced = state.baloot_announced
    if seat == state.baloot_seat and contract.trump is not None:
        # R32: announced when the second of the trump K and Q is played.
        pair = baloot_pair(contract.trump)
        if bit & pair and not hands[seat] & pair:
            baloot_announced = True
    trick = (*state.trick, card)
    if len(trick) < 4:
        return replace(
            state,
            hands=(hands[0], hands[1], hands[2], hands[3]),
            trick=trick,
            baloot_announced=baloot_announced,
            actions=actions,
        )
    winner, abnat = close_trick(trick, state.leader, contract.trump, len(state.tricks))
    team = winner % 2
    team_abnat = list(state.abnat)
    team_abnat[team] += abnat
    counts = list(state.trick_counts)
    counts[team] += 1
    state = replace(
        state,
        hands=(hands[0], hands[1], hands[2], hands[3]),
        trick=(),
        tricks=(*state.tricks, Trick(state.leader, trick, winner, abnat)),
        leader=winner,
        abnat=(team_abnat[0], team_abnat[1]),
        trick_counts=(counts[0], counts[1]),
        baloot_announced=baloot_announced,
        actions=actions,
    )
    if len(state.tricks) < TRICKS_PER_ROUND:
        return state
    return _end_round(state, score_state(state))


_REFUSALS = {
    "locked_trump_lead": "the round is locked: lead a non-trump card",
    "must_follow_suit": "you must follow the led suit",
    "must_trump": "you must play a trump",
    "must_overtrump": "you must play a trump higher than the winning one",
}


def _sawa(state: GameState, seat: int, actions: tuple[tuple[int, Move], ...]) -> GameState:
    """S21-S24: judge the claim with every hand known and end the round either way."""
    contract = state.contract
    assert contract is not None
    trump = contract.trump
    valid = sawa_holds(state.hands, seat, trump, state.locked, state.ruleset.compulsory_trumping)
    claim = SawaClaim(seat=seat, valid=valid)
    abnat, counts = state.abnat, state.trick_counts
    if valid:
        # S23: the claimant's team takes the rest as if played out, the last-trick 10 too.
        team = seat % 2
        gained = remaining_abnat(state.hands, trump) + LAST_TRICK_BONUS
        remaining = TRICKS_PER_ROUND - len(state.tricks)
        abnat = (abnat[0] + gained, abnat[1]) if team == 0 else (abnat[0], abnat[1] + gained)
        counts = (
            (counts[0] + remaining, counts[1]) if team == 0 else (counts[0], counts[1] + remaining)
        )
    result = score_round(
        contract=contract,
        ruleset=state.ruleset,
        abnat=abnat,
        trick_counts=counts,
        declarations=state.declarations,
        order=state.order,
        baloot_seat=state.baloot_seat,
        multiplier=state.multiplier,
        gahwa=state.gahwa,
        sawa=claim,
    )
    return _end_round(replace(state, actions=actions), result, revealed=state.hands)


def score_state(
    state: GameState,
    abnat: tuple[int, int] | None = None,
    trick_counts: tuple[int, int] | None = None,
) -> RoundResult:
    """R33-R43: the result of ``state``'s round under its contract, declarations, Baloot and
    doubling, with the round's abnat and trick counts (or the given ones: the bots' playouts
    score a finished deal without building its states)."""
    contract = state.contract
    assert contract is not None
    return score_round(
        contract=contract,
        ruleset=state.ruleset,
        abnat=state.abnat if abnat is None else abnat,
        trick_counts=state.trick_counts if trick_counts is None else trick_counts,
        declarations=state.declarations,
        order=state.order,
        baloot_seat=state.baloot_seat,
        multiplier=state.multiplier,
        gahwa=state.gahwa,
    )


def playing_state(
    *,
    ruleset: Ruleset,
    contract: Contract,
    hands: tuple[int, int, int, int],
    dealer: int,
    scores: tuple[int, int],
    target: int | None = None,
    round_no: int = 0,
    ladder: Ladder | None = None,
    leader: int | None = None,
    trick: tuple[Card, ...] = (),
    tricks: tuple[Trick, ...] = (),
    abnat: tuple[int, int] = (0, 0),
    trick_counts: tuple[int, int] = (0, 0),
    declarations: tuple[tuple[int, tuple[Project, ...]], ...] = (),
    baloot_seat: int | None = None,
    baloot_announced: bool = False,
    actions: tuple[tuple[int, Move], ...] = (),
) -> GameState:
    """A state in the play phase of ``contract`` built from its parts, as the bots need for the
    deals they imagine. The face-up card is the contract's; an omitted ladder is an undoubled
    one (x1), an omitted leader the one who leads trick 1 (R25, S4)."""
    return GameState(
        ruleset=ruleset,
        target=ruleset.default_target if target is None else target,
        scores=scores,
        dealer=dealer,
        phase=Phase.PLAYING,
        round_no=round_no,
        hands=hands,
        face_up=contract.face_up,
        contract=contract,
        ladder=Ladder(rung=None, queue=()) if ladder is None else ladder,
        leader=first_leader(ruleset, contract, dealer) if leader is None else leader,
        trick=trick,
        tricks=tricks,
        abnat=abnat,
        trick_counts=trick_counts,
        declarations=declarations,
        baloot_seat=baloot_seat,
        baloot_announced=baloot_announced,
        actions=actions,
    )


def _end_round(
    state: GameState,
    result: RoundResult | None,
    revealed: tuple[int, int, int, int] | None = None,
) -> GameState:
    """Close the round (R42, R43, R19): totals, match end, the deal passes to next(d)."""
    redeal = result is None
    result = REDEAL_RESULT if result is None else result
    scores = (state.scores[0] + result.points[0], state.scores[1] + result.points[1])
    log = RoundLog(
        number=state.round_no,
        dealer=state.dealer,
        deck=state.deck,
        actions=state.actions,
        contract=state.contract,
        multiplier=state.multiplier,
        gahwa=state.gahwa,
        locked=state.locked,
        tricks=state.tricks,
        result=result,
        status=RoundStatus.REDEAL if redeal else RoundStatus.COMPLETE,
        scores_after=scores,
        revealed_hands=revealed,
    )
    winner: int | None = None
    if result.gahwa_winner is not None:
        winner = result.gahwa_winner
    elif not redeal and max(scores) >= state.target and scores[0] != scores[1]:
        # R42: only a complete round can end the match; a redeal (R19) ends nothing.
        winner = 0 if scores[0] > scores[1] else 1
    return GameState(
        ruleset=state.ruleset,
        target=state.target,
        scores=scores,
        dealer=(state.dealer + 1) % 4,
        phase=Phase.FINISHED if winner is not None else Phase.DEAL,
        round_no=state.round_no,
        history=(*state.history, log),
        winner=winner,
    )


def outcome(state: GameState) -> Outcome | None:
    """The match result once it has ended by the rules (R42, R43), else None."""
    if state.winner is None:
        return None
    last = state.history[-1]
    reason = "gahwa" if last.result.gahwa_winner is not None else "target_reached"
    return Outcome(winner=state.winner, reason=reason, scores=state.scores)
