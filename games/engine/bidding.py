"""The bidding state machine of both rounds (R10-R20) and the doubling ladder (R21-R24).

Pure functions over small immutable records (frozen.py). ``bid_apply`` returns the next
``Bidding`` or a ``BidOutcome`` when the bidding is over (a contract, or a redeal when all pass
twice).
"""

from __future__ import annotations

from enum import StrEnum

from .cards import ACE, Suit
from .errors import IllegalMove
from .frozen import frozen_for_readers
from .moves import BIDS, DOUBLES, Bid, Call, Double, DoubleCall
from .rulesets import Ruleset


class Stage(StrEnum):
    R1_OPEN = "r1_open"
    R1_RESPONSE = "r1_response"
    R1_CONFIRM = "r1_confirm"
    SUN_CLAIM = "sun_claim"
    R2_OPEN = "r2_open"
    R2_RESPONSE = "r2_response"
    R2_CHOOSE = "r2_choose"


class Mode(StrEnum):
    SUN = "sun"
    HOKUM = "hokum"


@frozen_for_readers
class Bidding:
    stage: Stage
    order: tuple[int, ...]  # [d+1, d+2, d+3, d]
    queue: tuple[int, ...]  # seats still to act in this stage; queue[0] acts now
    bidder: int | None = None  # the Hokum bidder, or the Sun/Ashkal caller in SUN_CLAIM
    kind: Call | None = None  # SUN or ASHKAL in SUN_CLAIM

    @property
    def to_act(self) -> int:
        return self.queue[0]


@frozen_for_readers
class Contract:
    """R20: the result of the bidding."""

    kind: Call  # HOKUM, SUN or ASHKAL
    mode: Mode
    trump: Suit | None
    declarer: int
    recipient: int
    bidding_round: int
    face_up: int

    @property
    def bidder_team(self) -> int:
        return self.declarer % 2


REDEAL = "redeal"
BidOutcome = Contract | str  # a Contract, or REDEAL


def bidding_order(dealer: int) -> tuple[int, ...]:
    """R10: [d+1, d+2, d+3, d]."""
    return _ORDERS[dealer]


_ORDERS = tuple(tuple((dealer + i) % 4 for i in range(1, 5)) for dealer in range(4))


def bidding_start(dealer: int) -> Bidding:
    return _STARTS[dealer]


_STARTS = tuple(Bidding(stage=Stage.R1_OPEN, order=order, queue=order) for order in _ORDERS)


def may_ashkal(bidding: Bidding, seat: int, ruleset: Ruleset, face_up: int | None = None) -> bool:
    # R10: only the dealer's left and the dealer. S3: never on a face-up Ace, where the
    # ruleset says so.
    if not ruleset.ashkal_on_ace and face_up is not None and face_up & 7 == ACE:
        return False
    return bidding.order.index(seat) in ruleset.ashkal_positions


# The calls of each stage, made once: legal-move lists hand out these objects.
_PASS, _HOKUM, _SUN, _ASHKAL = (BIDS[c, None] for c in Call)  # in Call's order
_OPENING = ((_PASS, _HOKUM, _SUN), (_PASS, _HOKUM, _SUN, _ASHKAL))  # [may Ashkal]
_ANSWER = ((_PASS, _SUN), (_PASS, _SUN, _ASHKAL))
_CONFIRM = (_HOKUM, _SUN)  # R13: exactly these two, no Ashkal
# R17: Sun, or Hokum in a suit other than the face-up one; indexed by the face-up suit.
_CHOOSE = tuple(
    (_SUN, *(BIDS[Call.HOKUM, suit] for suit in range(4) if suit != face)) for face in range(4)
)


# Enum members are slow to look up on their class in Python 3.11 (EnumType has a __getattr__,
# which takes attribute access off the interpreter's fast path): the functions that run once
# per call compare against these module-level names instead.
_R1_OPEN, _R1_RESPONSE, _R1_CONFIRM = Stage.R1_OPEN, Stage.R1_RESPONSE, Stage.R1_CONFIRM
_SUN_CLAIM = Stage.SUN_CLAIM
_R2_OPEN, _R2_RESPONSE, _R2_CHOOSE = Stage.R2_OPEN, Stage.R2_RESPONSE, Stage.R2_CHOOSE
_CALL_PASS, _CALL_HOKUM, _CALL_ASHKAL = Call.PASS, Call.HOKUM, Call.ASHKAL
_SUN_MODE, _HOKUM_MODE = Mode.SUN, Mode.HOKUM


def bid_legal(
    bidding: Bidding, face_suit: Suit, ruleset: Ruleset, face_up: int | None = None
) -> list[Bid]:
    """The calls open to the seat to act. ``face_up`` (the card itself) matters only to a
    ruleset that bans Ashkal on an Ace (S3)."""
    return list(_calls_open(bidding, face_suit, ruleset, face_up))


def _calls_open(
    bidding: Bidding, face_suit: Suit, ruleset: Ruleset, face_up: int | None
) -> tuple[Bid, ...]:
    stage = bidding.stage
    if stage is _R1_CONFIRM:
        return _CONFIRM
    if stage is _R2_CHOOSE:
        return _CHOOSE[face_suit]
    # may_ashkal, inlined: R10 positions 3 and 4, S3 never on a face-up Ace.
    ashkal = bidding.order.index(bidding.queue[0]) in ruleset.ashkal_positions and (
        ruleset.ashkal_on_ace or face_up is None or face_up & 7 != ACE
    )
    if stage is _R1_OPEN or stage is _R2_OPEN:
        return _OPENING[ashkal]
    return _ANSWER[ashkal]


def _contract(
    bidding: Bidding, declarer: int, kind: Call, round_no: int, face_up: int, trump: Suit | None
) -> Contract:
    hokum = kind is _CALL_HOKUM
    return Contract(
        kind,
        _HOKUM_MODE if hokum else _SUN_MODE,
        trump if hokum else None,
        declarer,
        # R15/R9: Ashkal gives the face-up card to the caller's partner.
        (declarer + 2) % 4 if kind is _CALL_ASHKAL else declarer,
        round_no,
        face_up,
    )


def _sun_claim(bidding: Bidding, caller: int, kind: Call, face_up: int) -> Bidding | BidOutcome:
    # R14: the opponents of the caller who come before the caller in bidding order,
    # highest priority first.
    position = bidding.order.index(caller)
    claimants = tuple(s for s in bidding.order[:position] if (s - caller) % 2 == 1)
    if not claimants:
        return _contract(bidding, caller, kind, 1, face_up, None)
    return Bidding(stage=_SUN_CLAIM, order=bidding.order, queue=claimants, bidder=caller, kind=kind)


def bid_apply(bidding: Bidding, bid: Bid, face_up: int, ruleset: Ruleset) -> Bidding | BidOutcome:
    """Apply ``bid`` by the seat to act (the caller checked the turn). Raises IllegalMove."""
    face_suit = face_up >> 3
    if bid not in _calls_open(bidding, face_suit, ruleset, face_up):
        raise IllegalMove("illegal_call", _refusal(bidding, bid, face_suit))
    queue = bidding.queue
    seat = queue[0]
    stage = bidding.stage
    call = bid.call
    order = bidding.order

    if stage is _R1_OPEN:
        if call is _CALL_PASS:
            if len(queue) > 1:
                return Bidding(stage, order, queue[1:])
            return Bidding(_R2_OPEN, order, order)
        if call is _CALL_HOKUM:
            # R12: the three others, starting from next(h) and wrapping around.
            return Bidding(_R1_RESPONSE, order, _OTHERS[seat], seat)
        return _sun_claim(bidding, seat, call, face_up)

    if stage is _R1_RESPONSE:
        if call is _CALL_PASS:
            if len(queue) > 1:
                return Bidding(stage, order, queue[1:], bidding.bidder)
            assert bidding.bidder is not None
            return Bidding(_R1_CONFIRM, order, (bidding.bidder,), bidding.bidder)
        return _sun_claim(bidding, seat, call, face_up)

    if stage is _R1_CONFIRM:  # R13
        return _contract(bidding, seat, call, 1, face_up, face_suit)

    if stage is _SUN_CLAIM:
        assert bidding.bidder is not None and bidding.kind is not None
        if call is _CALL_PASS:
            if len(queue) > 1:
                return Bidding(stage, order, queue[1:], bidding.bidder, bidding.kind)
            return _contract(bidding, bidding.bidder, bidding.kind, 1, face_up, None)
        return _contract(bidding, seat, call, 1, face_up, None)

    if stage is _R2_OPEN or stage is _R2_RESPONSE:
        if call is _CALL_PASS:
            if len(queue) > 1:
                return Bidding(stage, order, queue[1:], bidding.bidder)
            if stage is _R2_OPEN:
                return REDEAL  # R19
            assert bidding.bidder is not None
            return Bidding(_R2_CHOOSE, order, (bidding.bidder,), bidding.bidder)
        if call is _CALL_HOKUM:  # only in R2_OPEN (bid_legal checked)
            # R17: only the players after h in bidding order answer.
            after = order[order.index(seat) + 1 :]
            if after:
                return Bidding(_R2_RESPONSE, order, after, seat)
            return Bidding(_R2_CHOOSE, order, (seat,), seat)
        return _contract(bidding, seat, call, 2, face_up, None)  # R18: final at once

    # R2_CHOOSE
    return _contract(bidding, seat, call, 2, face_up, bid.suit)


# R12: the seats after ``seat``, from next(seat) round the table.
_OTHERS = tuple(tuple((seat + i) % 4 for i in range(1, 4)) for seat in range(4))


def _refusal(bidding: Bidding, bid: Bid, face_suit: Suit) -> str:
    if bidding.stage is Stage.R2_CHOOSE and bid.call is Call.HOKUM:
        if bid.suit is None:
            return "the round-2 Hokum choice needs a suit"
        if bid.suit == face_suit:
            return "the round-2 Hokum suit must differ from the face-up card's suit"
    if bid.call is Call.ASHKAL:
        return "Ashkal is open only to the dealer and the dealer's left, where Sun is"
    if bid.suit is not None:
        return "a suit is named only in the round-2 Hokum choice"
    return f"{bid.call.value} is not open now ({bidding.stage.value})"


# --- Doubling ladder (R21-R24) ---------------------------------------------------------


class Rung(StrEnum):
    DOUBLE = "double"
    TRIPLE = "triple"
    FOUR = "four"
    GAHWA = "gahwa"


@frozen_for_readers
class Ladder:
    rung: Rung | None  # the call open now; None once the ladder is over
    queue: tuple[int, ...]
    multiplier: int = 1
    doubler: int | None = None
    gahwa: bool = False
    # S10: the caller of the level reached so far chose closed (only Double and Four choose).
    closed: bool = False

    @property
    def to_act(self) -> int:
        return self.queue[0]


_NEXT_RUNG = {Rung.DOUBLE: Rung.TRIPLE, Rung.TRIPLE: Rung.FOUR, Rung.FOUR: Rung.GAHWA}
# Module names, as for the stages above.
_DOUBLE, _TRIPLE, _FOUR, _GAHWA = Rung.DOUBLE, Rung.TRIPLE, Rung.FOUR, Rung.GAHWA
_DOUBLE_PASS = DoubleCall.PASS


def doubling_allowed(contract: Contract, scores: tuple[int, int], ruleset: Ruleset) -> bool:
    """R22: Hokum always; Sun only if the declarer's team is above and the opponents below."""
    if contract.mode is _HOKUM_MODE:
        return True
    threshold = ruleset.sun_doubling_threshold
    team = contract.bidder_team
    if ruleset.sun_doubling_opponents_max is not None:  # S9: opponents at 100 or less
        return scores[team] > threshold and scores[1 - team] <= ruleset.sun_doubling_opponents_max
    return scores[team] > threshold and scores[1 - team] < threshold


def ladder_start(contract: Contract) -> Ladder:
    return _LADDER_STARTS[contract.declarer]


# R21: the opponents asked in play order starting from next(declarer); one per declarer.
_LADDER_STARTS = tuple(
    Ladder(rung=Rung.DOUBLE, queue=((declarer + 1) % 4, (declarer + 3) % 4))
    for declarer in range(4)
)


def _chooses_lock(rung: Rung | None, contract: Contract, ruleset: Ruleset) -> bool:
    # S10: in Hokum the caller of Double and of Four says open or closed.
    return (
        ruleset.lock_chosen_by_caller
        and contract.mode is _HOKUM_MODE
        and (rung is _DOUBLE or rung is _FOUR)
    )


def ladder_legal(ladder: Ladder, contract: Contract, ruleset: Ruleset) -> list[Double]:
    """Pass and the one raise open now; a raise whose caller chooses the lock (S10, S11)
    appears twice, open then closed."""
    assert ladder.rung is not None
    return list(_LADDER_CALLS[ladder.rung][_chooses_lock(ladder.rung, contract, ruleset)])


# Per rung, [the caller chooses the lock]: the calls ``ladder_legal`` lists, made once.
_LADDER_CALLS = {
    rung: (
        (DOUBLES[DoubleCall.PASS, None], DOUBLES[DoubleCall(rung.value), None]),
        (
            DOUBLES[DoubleCall.PASS, None],
            DOUBLES[DoubleCall(rung.value), False],
            DOUBLES[DoubleCall(rung.value), True],
        ),
    )
    for rung in Rung
}


def normalize_double(
    double: Double, ladder: Ladder, contract: Contract, ruleset: Ruleset
) -> Double:
    """``double`` as the engine keeps it: ``locked`` a boolean exactly where the caller chooses
    (S10; absent means open), None everywhere else, where it is ignored (S11)."""
    raising = ladder.rung is not None and double.call.value == ladder.rung.value
    if raising and _chooses_lock(ladder.rung, contract, ruleset):
        return DOUBLES[double.call, bool(double.locked)]
    return DOUBLES[double.call, None]


def ladder_locked(ladder: Ladder, contract: Contract, ruleset: Ruleset) -> bool:
    """R23: Hokum at x2 or x4 (not Gahwa) is locked; under S10 only if that level's caller
    chose closed."""
    if contract.mode is not _HOKUM_MODE or ladder.multiplier not in (2, 4) or ladder.gahwa:
        return False
    return ladder.closed if ruleset.lock_chosen_by_caller else True


def ladder_apply(ladder: Ladder, double: Double, contract: Contract, ruleset: Ruleset) -> Ladder:
    """Apply ``double`` (already normalized) by the seat to act. Raises IllegalMove."""
    rung = ladder.rung
    if rung is None or double not in _LADDER_CALLS[rung][_chooses_lock(rung, contract, ruleset)]:
        raise IllegalMove("illegal_call", f"{double.call.value} is not open now")
    seat = ladder.queue[0]
    if double.call is _DOUBLE_PASS:
        if rung is _DOUBLE and len(ladder.queue) > 1:
            return Ladder(rung=rung, queue=ladder.queue[1:])
        return Ladder(
            rung=None,
            queue=(),
            multiplier=ladder.multiplier,
            doubler=ladder.doubler,
            closed=ladder.closed,
        )
    assert rung is not None
    if rung is _GAHWA:  # R24
        return Ladder(rung=None, queue=(), multiplier=4, doubler=ladder.doubler, gahwa=True)
    doubler = seat if rung is _DOUBLE else ladder.doubler
    assert doubler is not None
    closed = bool(double.locked)  # Triple is always open (S10)
    if ruleset.sun_double_only and contract.mode is _SUN_MODE and rung is _DOUBLE:
        # S8: Sun has one step; play starts at once.
        return Ladder(rung=None, queue=(), multiplier=2, doubler=doubler)
    # Triple and Gahwa belong to the declarer, Four to the doubler (R21).
    next_rung = _NEXT_RUNG[rung]
    next_seat = doubler if next_rung is _FOUR else contract.declarer
    return Ladder(
        rung=next_rung,
        queue=(next_seat,),
        multiplier=ladder.multiplier + 1,
        doubler=doubler,
        closed=closed,
    )
