"""The game state and the engine's core API: deal, legal moves, apply, outcome.

State is immutable: ``apply`` returns a new ``GameState`` and never changes the one it was
given, so a refused move changes nothing. Randomness never enters: the caller supplies each
round's shuffled deck (``start_round``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

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
from .cards import SUIT_MASK, Card
from .drafts import draft_class, fast_init, new_draft, seal
from .errors import EngineError, IllegalMove, MalformedMove
from .moves import PLAYS, SAWA, Bid, Declare, Double, Move, Play, Project, Sawa
from .play import (
    LAST_TRICK_BONUS,
    NO_TRUMP,
    TRICK_RANK,
    TRICKS_PER_ROUND,
    VALUES,
    close_trick,
    legal_follow_mask,
    legal_lead_mask,
    refusal_code,
    scored_trick,
)
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


@fast_init
@dataclass(frozen=True, slots=True)
class Trick:
    leader: int
    cards: tuple[Card, ...]  # in play order from the leader
    winner: int
    abnat: int  # trick 8 includes the last-trick 10


@fast_init
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


@fast_init
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
        ladder = self.ladder
        if ladder is None or ladder.multiplier == 1 or self.contract is None:
            return False  # R23: only a doubled Hokum is ever locked
        return ladder_locked(ladder, self.contract, self.ruleset)

    @property
    def order(self) -> tuple[int, ...]:
        return bidding_order(self.dealer)


# --- Drafts: the engine changes a private copy, the API hands out frozen states ------------
#
# Every rule that changes a state is written once, against a draft (drafts.py): a writable
# object with GameState's slots (and its properties), changed in place. ``apply`` copies the
# state into a draft, advances it by one move and seals it; ``apply_moves`` copies once and
# advances it by many, which is what replaying a log or a record needs. ``_advance`` checks
# everything a move can be refused for before it changes anything, so a refused move leaves
# the draft exactly as it was.

Draft = Any  # a GameState being changed in place (a _StateDraft)

_StateDraft = draft_class(GameState)
_TrickDraft = draft_class(Trick)


def _draft_of(state: GameState) -> Draft:
    """A writable copy of ``state``, every field set."""
    d: Draft = new_draft(_StateDraft)
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


def _trick(leader: int, cards: tuple[Card, ...], winner: int, abnat: int) -> Trick:
    d: Any = new_draft(_TrickDraft)
    d.leader = leader
    d.cards = cards
    d.winner = winner
    d.abnat = abnat
    d.__class__ = Trick  # drafts.seal, inlined
    trick: Trick = d
    return trick


_PLAYING, _BIDDING, _DOUBLING = Phase.PLAYING, Phase.BIDDING, Phase.DOUBLING
_DEAL, _FINISHED = Phase.DEAL, Phase.FINISHED
_COMPLETE, _REDEAL = RoundStatus.COMPLETE, RoundStatus.REDEAL


# --- The API ------------------------------------------------------------------------------


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


_FULL_DECK = frozenset(range(32))


def with_history(state: GameState, history: tuple[RoundLog, ...]) -> GameState:
    """``state`` with another history (``dataclasses.replace`` without its cost: the record
    replay swaps the history once per round)."""
    d = _draft_of(state)
    d.history = history
    changed: GameState = seal(d, GameState)
    return changed


def start_round(state: GameState, deck: tuple[Card, ...] | list[Card]) -> GameState:
    """Deal ``deck`` (D[0..31], already shuffled by the caller) as R8 fixes it."""
    if state.phase is not _DEAL:
        raise ValueError(f"cannot deal in phase {state.phase}")
    deck = tuple(deck)
    if len(deck) != 32 or _FULL_DECK.difference(deck):
        raise ValueError("a deck is 32 distinct cards")
    # R8 (E49): 3 cards to each seat in bidding order, then 2 to each.
    first, second, third, dealer = bidding_order(state.dealer)
    hands = [0, 0, 0, 0]
    hands[first] = 1 << deck[0] | 1 << deck[1] | 1 << deck[2] | 1 << deck[12] | 1 << deck[13]
    hands[second] = 1 << deck[3] | 1 << deck[4] | 1 << deck[5] | 1 << deck[14] | 1 << deck[15]
    hands[third] = 1 << deck[6] | 1 << deck[7] | 1 << deck[8] | 1 << deck[16] | 1 << deck[17]
    hands[dealer] = 1 << deck[9] | 1 << deck[10] | 1 << deck[11] | 1 << deck[18] | 1 << deck[19]
    d = _draft_of(state)
    d.phase = _BIDDING
    d.round_no = state.round_no + 1
    d.deck = deck
    d.hands = (hands[0], hands[1], hands[2], hands[3])
    d.face_up = deck[20]
    d.bidding = bidding_start(state.dealer)
    dealt: GameState = seal(d, GameState)
    return dealt


def to_act(state: GameState) -> int | None:
    """The seat whose move it is, or None between rounds and after the match."""
    phase = state.phase
    if phase is _PLAYING:
        return (state.leader + len(state.trick)) & 3
    if phase is _BIDDING:
        assert state.bidding is not None
        return state.bidding.queue[0]
    if phase is _DOUBLING:
        assert state.ladder is not None
        return state.ladder.queue[0]
    return None


def legal_play_cards(state: GameState, seat: int) -> int:
    """The mask of the cards ``seat`` may play now (R23, R26; S5-S7 where the ruleset says)."""
    contract = state.contract
    assert contract is not None
    trick = state.trick
    if trick:
        return legal_follow_mask(
            state.hands[seat], trick, contract.trump, state.ruleset.compulsory_trumping
        )
    return legal_lead_mask(state.hands[seat], contract.trump, state.locked)


def may_sawa(state: GameState) -> bool:
    """S20: the ruleset has Sawa and the seat to act leads a trick holding at most 4 cards."""
    if not state.ruleset.sawa or state.phase is not _PLAYING:
        return False
    seat = (state.leader + len(state.trick)) % 4
    return sawa_open(leading=not state.trick, cards_in_hand=state.hands[seat].bit_count())


# The play moves of each 8-card suit holding (by byte, per suit), so that a legal mask turns
# into its moves by lookups instead of a loop over its bits.
_PLAYS_BY_BYTE = tuple(
    tuple(tuple(PLAYS[suit * 8 + r] for r in range(8) if byte >> r & 1) for byte in range(256))
    for suit in range(4)
)


def legal_moves(state: GameState) -> list[Move]:
    """Every legal bid, doubling call or play for the seat to act (declarations are checked
    when made, not listed, as in the record format), and last Sawa when it is open (S20)."""
    phase = state.phase
    if phase is _PLAYING:
        trick = state.trick
        hand = state.hands[(state.leader + len(trick)) & 3]
        contract = state.contract
        assert contract is not None
        ruleset = state.ruleset
        trump = contract.trump
        if trick:
            if trump is None or not ruleset.compulsory_trumping:
                # R26 (legal_follow_mask, inlined): follow suit if able, else anything.
                led = trick[0] >> 3
                follow = hand >> 8 * led & 0xFF
                if follow:
                    return list(_PLAYS_BY_BYTE[led][follow])
                mask = hand
            else:
                mask = legal_follow_mask(hand, trick, trump, True)
        else:
            ladder = state.ladder
            if trump is None or ladder is None or ladder.multiplier == 1:
                mask = hand  # R23: only a doubled Hokum can be locked
            else:
                mask = legal_lead_mask(hand, trump, state.locked)
        spades, hearts, diamonds, clubs = _PLAYS_BY_BYTE
        plays: list[Move] = [
            *spades[mask & 0xFF],
            *hearts[mask >> 8 & 0xFF],
            *diamonds[mask >> 16 & 0xFF],
            *clubs[mask >> 24],
        ]
        if trick:
            return plays
        if ruleset.sawa and sawa_open(leading=True, cards_in_hand=hand.bit_count()):
            plays.append(SAWA)
        return plays
    if phase is _BIDDING:
        assert state.bidding is not None and state.face_up is not None
        return list(bid_legal(state.bidding, state.face_up >> 3, state.ruleset, state.face_up))
    if phase is _DOUBLING:
        assert state.ladder is not None and state.contract is not None
        return list(ladder_legal(state.ladder, state.contract, state.ruleset))
    return []


def may_declare(state: GameState, seat: int) -> bool:
    """R30: only on the seat's own first turn of trick 1, and only once."""
    return (
        state.phase is _PLAYING
        and not state.tricks
        and to_act(state) == seat
        and all(s != seat for s, _ in state.declarations)
    )


def apply(state: GameState, seat: int, move: Move) -> GameState:
    """Apply ``move`` by ``seat``; raise MalformedMove or IllegalMove and change nothing."""
    d = _draft_of(state)
    if (
        type(move) is Play
        and state.phase is _PLAYING
        and seat == (state.leader + len(state.trick)) & 3
        and type(seat) is int
    ):
        _play(d, seat, move)  # _advance's first case, without the call
    else:
        _advance(d, seat, move)
    d.__class__ = GameState  # drafts.seal, inlined: apply runs once per move
    applied: GameState = d
    return applied


class MovesRefused(Exception):
    """``apply_moves`` stopped: move number ``index`` (0-based) was refused with ``error``;
    ``state`` is the state after the moves before it."""

    def __init__(self, state: GameState, index: int, error: EngineError) -> None:
        super().__init__(f"move {index}: {error.code}: {error.message}")
        self.state = state
        self.index = index
        self.error = error


def apply_moves(state: GameState, moves: Iterable[tuple[int, Move]]) -> GameState:
    """``apply`` each (seat, move) in order, without making the states in between (a replay
    of a log or a record). Raises MovesRefused."""
    d = _draft_of(state)
    # The round's log grows in a list meanwhile (each move's ``d.actions += ...`` then
    # extends it instead of copying a tuple); _end_round and the end here make it a tuple.
    d.actions = list(d.actions)
    index = 0
    actions = iter(moves)
    try:
        for seat, move in actions:
            if type(seat) is not int:
                _advance(d, seat, move)  # refuses it (a bool, say, though True == 1)
            elif type(move) is Play and d.phase is _PLAYING:
                # The card plays that follow, up to the first that is not a legal play.
                played, pending = _play_run(d, seat, move, actions)
                index += played
                if pending is None:
                    continue
                if isinstance(pending, EngineError):
                    raise pending  # from the moves' iterator, at its own index
                seat, move = pending
                _advance(d, seat, move)  # refuses it, or makes a declaration or Sawa
            elif type(move) is Bid and d.phase is _BIDDING and seat == d.bidding.queue[0]:
                _bid(d, seat, move)  # _advance's second case, without the call
            elif type(move) is Double and d.phase is _DOUBLING and seat == d.ladder.queue[0]:
                _double(d, seat, move)  # as _advance would, without its checks in between
            else:
                _advance(d, seat, move)
            index += 1
    except EngineError as error:
        d.actions = tuple(d.actions)
        raise MovesRefused(seal(d, GameState), index, error) from error
    d.actions = tuple(d.actions)
    done: GameState = seal(d, GameState)
    return done


def _play_run(
    d: Draft, seat: int, move: Play, moves: Iterator[tuple[int, Move]]
) -> tuple[int, tuple[int, Move] | EngineError | None]:
    """``_play`` for ``move`` and each card play after it in ``moves``, with the play phase
    held in local variables meanwhile (a replay is mostly runs of plays, and ``_play`` reads
    and rebuilds the draft's tuples at every card). Stops before the first move that is not
    a legal play by the seat to act, which it returns for the caller to apply or refuse;
    an EngineError raised by ``moves`` is returned in its place. Returns (plays made, that
    move or error), the second None when ``moves`` ran out or the round's last trick ended
    the round.

    The rules are ``_play``'s, and only its accepting path: anything it would refuse is left
    to ``_advance``, which refuses it. The tests hold the two to the same states."""
    contract = d.contract
    trump = contract.trump
    row = NO_TRUMP if trump is None else trump
    ranks, values = TRICK_RANK[row], VALUES[row]
    compulsory = trump is not None and d.ruleset.compulsory_trumping
    lock = d.locked  # R23; the ladder is settled once play starts
    baloot_seat = d.baloot_seat
    pair = 0 if trump is None else baloot_pair(trump)  # R32: Hokum only
    hands = list(d.hands)
    trick = d.trick
    leader = d.leader
    tricks = d.tricks
    abnat_a, abnat_b = d.abnat
    count_a, count_b = d.trick_counts
    log = d.actions  # a list while apply_moves runs
    played = 0
    pending: tuple[int, Move] | EngineError | None = None
    try:
        while True:
            if seat != (leader + len(trick)) & 3:  # also any int that is not a seat
                pending = (seat, move)
                break
            card = move.card
            bit = 1 << card
            hand = hands[seat]
            if trick:
                if compulsory:
                    legal = legal_follow_mask(hand, trick, trump, True)
                else:
                    legal = hand & SUIT_MASK[trick[0] >> 3] or hand  # R26
            else:
                legal = legal_lead_mask(hand, trump, True) if lock else hand
            if not legal & bit:  # not held, or held and not legal: _advance refuses it
                pending = (seat, move)
                break
            hand ^= bit
            hands[seat] = hand
            log.append(_SEAT_PLAYS[seat][card])
            played += 1
            if seat == baloot_seat and bit & pair and not hand & pair:
                d.baloot_announced = True  # R32: the second of the trump K and Q
            trick += (card,)
            if len(trick) == 4:
                # R27, R28, R6: scored_trick is close_trick with the rows looked up.
                done = len(tricks)
                winner, abnat = scored_trick(trick, leader, done, trump, ranks, values)
                if winner & 1:
                    abnat_b += abnat
                    count_b += 1
                else:
                    abnat_a += abnat
                    count_a += 1
                tricks += (_trick(leader, trick, winner, abnat),)
                trick = ()
                leader = winner
                if done == TRICKS_PER_ROUND - 1:
                    break
            try:
                seat, following = next(moves)
            except StopIteration:
                break
            except EngineError as error:
                pending = error
                break
            if type(following) is not Play or type(seat) is not int:
                pending = (seat, following)
                break
            move = following
    finally:
        d.hands = (hands[0], hands[1], hands[2], hands[3])
        d.trick = trick
        d.tricks = tricks
        d.leader = leader
        d.abnat = (abnat_a, abnat_b)
        d.trick_counts = (count_a, count_b)
    if len(tricks) == TRICKS_PER_ROUND:
        _end_round(d, score_state(d))
    return played, pending


# --- Moves, on a draft --------------------------------------------------------------------


def _advance(d: Draft, seat: int, move: Move) -> None:
    """Make ``move`` by ``seat`` on ``d``; raise MalformedMove or IllegalMove, in the record
    format's order of checks, before changing anything."""
    if type(seat) is not int or not 0 <= seat <= 3:
        _check_seat(seat)
    phase = d.phase
    if phase is _PLAYING:
        acting = (d.leader + len(d.trick)) & 3
        if type(move) is Play and seat == acting:
            _play(d, seat, move)  # the common case, first
            return
    elif phase is _BIDDING:
        acting = d.bidding.queue[0]
        if type(move) is Bid and seat == acting:
            _bid(d, seat, move)
            return
    elif phase is _DOUBLING:
        acting = d.ladder.queue[0]
    else:
        raise MalformedMove("the round is over")
    if isinstance(move, Sawa) and not d.ruleset.sawa:
        raise MalformedMove("this ruleset has no Sawa")  # S20: an unknown action type
    if seat != acting:
        raise IllegalMove("not_your_turn", f"it is seat {acting}'s turn")
    if isinstance(move, Play):
        if phase is not _PLAYING:
            raise IllegalMove("illegal_call", "cards are played only after bidding and doubling")
        _play(d, seat, move)
    elif isinstance(move, Bid):
        if phase is not _BIDDING:
            raise IllegalMove("illegal_call", "the bidding is over")
        _bid(d, seat, move)
    elif isinstance(move, Double):
        if phase is not _DOUBLING:
            raise IllegalMove("illegal_call", "doubling calls are made only after the bidding")
        _double(d, seat, move)
    elif isinstance(move, Declare):
        _declare(d, seat, move)
    elif isinstance(move, Sawa):
        if not may_sawa(d):
            raise IllegalMove(
                "illegal_call", "Sawa is called only to lead a trick, with at most 4 cards"
            )
        _sawa(d, seat, move)
    else:
        raise MalformedMove(f"not a move: {move!r}")


def _check_seat(seat: object) -> None:
    """Refuse anything but a seat 0-3 (an int, not a bool)."""
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= 3:
        raise MalformedMove(f"not a seat: {seat!r}")


def _bid(d: Draft, seat: int, bid: Bid) -> None:
    result = bid_apply(d.bidding, bid, d.face_up, d.ruleset)  # refuses before any change
    d.actions += ((seat, bid),)
    if type(result) is Bidding:
        d.bidding = result
    elif result == REDEAL:
        _end_round(d, None)
    else:
        assert isinstance(result, Contract)
        _after_bidding(d, result)


def _after_bidding(d: Draft, contract: Contract) -> None:
    # R9: stock cards in bidding order, 3 to each non-recipient, 2 (+ face-up) to the recipient.
    deck = d.deck
    hands = list(d.hands)
    for seat, first, second, third in _COMPLETION[d.dealer][contract.recipient]:
        hands[seat] |= 1 << deck[first] | 1 << deck[second] | 1 << deck[third]
    if doubling_allowed(contract, d.scores, d.ruleset):
        d.ladder = ladder_start(contract)
        d.phase = _DOUBLING
    else:
        d.ladder = _NO_LADDER
        d.phase = _PLAYING
    d.hands = (hands[0], hands[1], hands[2], hands[3])
    d.bidding = None
    d.contract = contract
    d.leader = first_leader(d.ruleset, contract, d.dealer)
    d.baloot_seat = baloot_holder(hands, contract.trump)  # R32: Hokum only, one player's K and Q


def _completion(dealer: int, recipient: int) -> tuple[tuple[int, int, int, int], ...]:
    """R9 for one dealer and card recipient: (seat, three deck indexes) per seat, the
    face-up card (D[20]) being the recipient's third."""
    out = []
    position = 21
    for seat in bidding_order(dealer):
        if seat == recipient:
            out.append((seat, position, position + 1, 20))
            position += 2
        else:
            out.append((seat, position, position + 1, position + 2))
            position += 3
    return tuple(out)


_COMPLETION = tuple(tuple(_completion(dealer, r) for r in range(4)) for dealer in range(4))

# The ladder of a round that was never doubled (R22: a Sun nobody may double).
_NO_LADDER = Ladder(rung=None, queue=())


def first_leader(ruleset: Ruleset, contract: Contract, dealer: int) -> int:
    """Who leads trick 1: the declarer (R25), or the dealer's right (S4)."""
    return (dealer + 1) % 4 if ruleset.first_lead_dealer_right else contract.declarer


def _double(d: Draft, seat: int, double: Double) -> None:
    contract = d.contract
    double = normalize_double(double, d.ladder, contract, d.ruleset)
    ladder = ladder_apply(d.ladder, double, contract, d.ruleset)  # refuses before any change
    d.actions += ((seat, double),)
    d.ladder = ladder
    d.phase = _DOUBLING if ladder.rung is not None else _PLAYING


def _declare(d: Draft, seat: int, declare: Declare) -> None:
    if not may_declare(d, seat):
        raise IllegalMove(
            "invalid_project",
            "projects are declared once, on your first turn of trick 1, before you play",
        )
    validate_declaration(d.hands[seat], declare.projects, d.contract.mode)
    d.declarations += ((seat, declare.projects),)
    d.actions += ((seat, declare),)


def _play(d: Draft, seat: int, move: Play) -> None:
    """R23, R26-R28, R32 (and S5-S7): the card leaves the hand; a fourth card closes the trick,
    the eighth trick the round."""
    card = move.card
    bit = 1 << card
    hands = d.hands
    hand = hands[seat]
    if not hand & bit:
        raise IllegalMove("card_not_held", "that card is not in your hand")
    trump = d.contract.trump
    trick = d.trick
    if not trick:
        # R23: only a doubled Hokum can be locked; anything else leads any card.
        ladder = d.ladder
        if trump is None or ladder is None or ladder.multiplier == 1:
            legal = hand
        else:
            legal = legal_lead_mask(hand, trump, d.locked)
    elif trump is None or not d.ruleset.compulsory_trumping:
        legal = hand & SUIT_MASK[trick[0] >> 3] or hand  # R26, legal_follow_mask's first case
    else:
        legal = legal_follow_mask(hand, trick, trump, True)
    if not legal & bit:
        code = refusal_code(hand, trick, trump, card)
        raise IllegalMove(code, _REFUSALS[code])
    hand ^= bit
    if seat == 0:
        d.hands = (hand, hands[1], hands[2], hands[3])
    elif seat == 1:
        d.hands = (hands[0], hand, hands[2], hands[3])
    elif seat == 2:
        d.hands = (hands[0], hands[1], hand, hands[3])
    else:
        d.hands = (hands[0], hands[1], hands[2], hand)
    d.actions += (_SEAT_PLAYS[seat][card],)
    if seat == d.baloot_seat and trump is not None:
        # R32: announced when the second of the trump K and Q is played.
        pair = baloot_pair(trump)
        if bit & pair and not hand & pair:
            d.baloot_announced = True
    trick += (card,)
    if len(trick) < 4:
        d.trick = trick
        return
    # R27, R28, R6: the one definition of who takes a trick and what it is worth.
    done = len(d.tricks)
    leader = d.leader
    winner, abnat = close_trick(trick, leader, trump, done)
    last = done == TRICKS_PER_ROUND - 1
    a, b = d.abnat
    n0, n1 = d.trick_counts
    if winner & 1:
        d.abnat = (a, b + abnat)
        d.trick_counts = (n0, n1 + 1)
    else:
        d.abnat = (a + abnat, b)
        d.trick_counts = (n0 + 1, n1)
    d.trick = ()
    d.tricks += (_trick(leader, trick, winner, abnat),)
    d.leader = winner
    if last:
        _end_round(d, score_state(d))


# The log entry (seat, move) of every card play, made once.
_SEAT_PLAYS = tuple(tuple((seat, PLAYS[card]) for card in range(32)) for seat in range(4))

_REFUSALS = {
    "locked_trump_lead": "the round is locked: lead a non-trump card",
    "must_follow_suit": "you must follow the led suit",
    "must_trump": "you must play a trump",
    "must_overtrump": "you must play a trump higher than the winning one",
}


def _sawa(d: Draft, seat: int, sawa: Sawa) -> None:
    """S21-S24: judge the claim with every hand known and end the round either way."""
    contract = d.contract
    trump = contract.trump
    valid = sawa_holds(d.hands, seat, trump, d.locked, d.ruleset.compulsory_trumping)
    claim = SawaClaim(seat=seat, valid=valid)
    abnat, counts = d.abnat, d.trick_counts
    if valid:
        # S23: the claimant's team takes the rest as if played out, the last-trick 10 too.
        team = seat % 2
        gained = remaining_abnat(d.hands, trump) + LAST_TRICK_BONUS
        remaining = TRICKS_PER_ROUND - len(d.tricks)
        abnat = (abnat[0] + gained, abnat[1]) if team == 0 else (abnat[0], abnat[1] + gained)
        counts = (
            (counts[0] + remaining, counts[1]) if team == 0 else (counts[0], counts[1] + remaining)
        )
    result = score_round(
        contract=contract,
        ruleset=d.ruleset,
        abnat=abnat,
        trick_counts=counts,
        declarations=d.declarations,
        order=d.order,
        baloot_seat=d.baloot_seat,
        multiplier=d.multiplier,
        gahwa=d.gahwa,
        sawa=claim,
    )
    d.actions += ((seat, sawa),)
    _end_round(d, result, revealed=d.hands)


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
    ladder = state.ladder  # state.multiplier and state.gahwa, read once
    return score_round(
        contract=contract,
        ruleset=state.ruleset,
        abnat=state.abnat if abnat is None else abnat,
        trick_counts=state.trick_counts if trick_counts is None else trick_counts,
        declarations=state.declarations,
        order=bidding_order(state.dealer),
        baloot_seat=state.baloot_seat,
        multiplier=1 if ladder is None else ladder.multiplier,
        gahwa=ladder is not None and ladder.gahwa,
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
    d: Draft,
    result: RoundResult | None,
    revealed: tuple[int, int, int, int] | None = None,
) -> None:
    """Close the round (R42, R43, R19): totals, match end, the deal passes to next(d). The
    draft becomes what ``new_match`` would make with these totals and this history: every
    per-round field back to GameState's default."""
    redeal = result is None
    result = REDEAL_RESULT if result is None else result
    scores = (d.scores[0] + result.points[0], d.scores[1] + result.points[1])
    ladder = d.ladder
    log = RoundLog(
        number=d.round_no,
        dealer=d.dealer,
        deck=d.deck,
        actions=tuple(d.actions),  # a list while apply_moves runs
        contract=d.contract,
        multiplier=1 if ladder is None else ladder.multiplier,
        gahwa=ladder is not None and ladder.gahwa,
        locked=ladder is not None and ladder.multiplier != 1 and d.locked,
        tricks=d.tricks,
        result=result,
        status=_REDEAL if redeal else _COMPLETE,
        scores_after=scores,
        revealed_hands=revealed,
    )
    winner: int | None = None
    if result.gahwa_winner is not None:
        winner = result.gahwa_winner
    elif not redeal and max(scores) >= d.target and scores[0] != scores[1]:
        # R42: only a complete round can end the match; a redeal (R19) ends nothing.
        winner = 0 if scores[0] > scores[1] else 1
    d.scores = scores
    d.dealer = (d.dealer + 1) % 4
    d.phase = _FINISHED if winner is not None else _DEAL
    d.deck = ()
    d.hands = (0, 0, 0, 0)
    d.face_up = None
    d.bidding = None
    d.contract = None
    d.ladder = None
    d.leader = 0
    d.trick = ()
    d.tricks = ()
    d.abnat = (0, 0)
    d.trick_counts = (0, 0)
    d.declarations = ()
    d.baloot_seat = None
    d.baloot_announced = False
    d.actions = ()
    d.history += (log,)
    d.winner = winner


def outcome(state: GameState) -> Outcome | None:
    """The match result once it has ended by the rules (R42, R43), else None."""
    if state.winner is None:
        return None
    last = state.history[-1]
    reason = "gahwa" if last.result.gahwa_winner is not None else "target_reached"
    return Outcome(winner=state.winner, reason=reason, scores=state.scores)
