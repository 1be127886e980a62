"""The bidding state machine of both rounds (R10-R20) and the doubling ladder (R21-R24).

Pure functions over small frozen records. ``bid_apply`` returns the next ``Bidding`` or a
``BidOutcome`` when the bidding is over (a contract, or a redeal when all pass twice).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .cards import ACE, Suit
from .drafts import fast_init
from .errors import IllegalMove
from .moves import Bid, Call, Double, DoubleCall
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


@fast_init
@dataclass(frozen=True, slots=True)
class Bidding:
    stage: Stage
    order: tuple[int, ...]  # [d+1, d+2, d+3, d]
    queue: tuple[int, ...]  # seats still to act in this stage; queue[0] acts now
    bidder: int | None = None  # the Hokum bidder, or the Sun/Ashkal caller in SUN_CLAIM
    kind: Call | None = None  # SUN or ASHKAL in SUN_CLAIM

    @property
    def to_act(self) -> int:
        return self.queue[0]


@fast_init
@dataclass(frozen=True, slots=True)
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
_PASS, _HOKUM, _SUN, _ASHKAL = (Bid(c) for c in (Call.PASS, Call.HOKUM, Call.SUN, Call.ASHKAL))
_OPENING = ((_PASS, _HOKUM, _SUN), (_PASS, _HOKUM, _SUN, _ASHKAL))  # [may Ashkal]
_ANSWER = ((_PASS, _SUN), (_PASS, _SUN, _ASHKAL))
_CONFIRM = (_HOKUM, _SUN)  # R13: exactly these two, no Ashkal
# R17: Sun, or Hokum in a suit other than the face-up one; indexed by the face-up suit.
_CHOOSE = tuple(
    (_SUN, *(Bid(Call.HOKUM, suit) for suit in range(4) if suit != face)) for face in range(4)
)


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
    if stage is Stage.R1_CONFIRM:
        return _CONFIRM
    if stage is Stage.R2_CHOOSE:
        return _CHOOSE[face_suit]
    ashkal = may_ashkal(bidding, bidding.queue[0], ruleset, face_up)
    if stage is Stage.R1_OPEN or stage is Stage.R2_OPEN:
        return _OPENING[ashkal]
    return _ANSWER[ashkal]


def _contract(
    bidding: Bidding, declarer: int, kind: Call, round_no: int, face_up: int, trump: Suit | None
) -> Contract:
    mode = Mode.HOKUM if kind is Call.HOKUM else Mode.SUN
    # R15/R9: Ashkal gives the face-up card to the caller's partner.
    recipient = (declarer + 2) % 4 if kind is Call.ASHKAL else declarer
    return Contract(
        kind=kind,
        mode=mode,
        trump=trump if mode is Mode.HOKUM else None,
        declarer=declarer,
        recipient=recipient,
        bidding_round=round_no,
        face_up=face_up,
    )


def _sun_claim(bidding: Bidding, caller: int, kind: Call, face_up: int) -> Bidding | BidOutcome:
    # R14: the opponents of the caller who come before the caller in bidding order,
    # highest priority first.
    position = bidding.order.index(caller)
    claimants = tuple(s for s in bidding.order[:position] if (s - caller) % 2 == 1)
    if not claimants:
        return _contract(bidding, caller, kind, 1, face_up, None)
    return Bidding(
        stage=Stage.SUN_CLAIM, order=bidding.order, queue=claimants, bidder=caller, kind=kind
    )


def bid_apply(bidding: Bidding, bid: Bid, face_up: int, ruleset: Ruleset) -> Bidding | BidOutcome:
    """Apply ``bid`` by the seat to act (the caller checked the turn). Raises IllegalMove."""
    face_suit = face_up >> 3
    if bid not in _calls_open(bidding, face_suit, ruleset, face_up):
        raise IllegalMove("illegal_call", _refusal(bidding, bid, face_suit))
    seat = bidding.queue[0]
    stage = bidding.stage
    call = bid.call
    rest = bidding.queue[1:]
    order = bidding.order

    if stage is Stage.R1_OPEN:
        if call is Call.PASS:
            if rest:
                return Bidding(stage=stage, order=order, queue=rest)
            return Bidding(stage=Stage.R2_OPEN, order=order, queue=order)
        if call is Call.HOKUM:
            # R12: the three others, starting from next(h) and wrapping around.
            queue = tuple((seat + i) % 4 for i in range(1, 4))
            return Bidding(stage=Stage.R1_RESPONSE, order=order, queue=queue, bidder=seat)
        return _sun_claim(bidding, seat, call, face_up)

    if stage is Stage.R1_RESPONSE:
        if call is Call.PASS:
            if rest:
                return Bidding(stage=stage, order=order, queue=rest, bidder=bidding.bidder)
            assert bidding.bidder is not None
            return Bidding(
                stage=Stage.R1_CONFIRM, order=order, queue=(bidding.bidder,), bidder=bidding.bidder
            )
        return _sun_claim(bidding, seat, call, face_up)

    if stage is Stage.R1_CONFIRM:  # R13
        return _contract(bidding, seat, call, 1, face_up, face_suit)

    if stage is Stage.SUN_CLAIM:
        assert bidding.bidder is not None and bidding.kind is not None
        if call is Call.PASS:
            if rest:
                return Bidding(
                    stage=stage, order=order, queue=rest, bidder=bidding.bidder, kind=bidding.kind
                )
            return _contract(bidding, bidding.bidder, bidding.kind, 1, face_up, None)
        return _contract(bidding, seat, call, 1, face_up, None)

    if stage in (Stage.R2_OPEN, Stage.R2_RESPONSE):
        if call is Call.PASS:
            if rest:
                return Bidding(stage=stage, order=order, queue=rest, bidder=bidding.bidder)
            if stage is Stage.R2_OPEN:
                return REDEAL  # R19
            assert bidding.bidder is not None
            return Bidding(
                stage=Stage.R2_CHOOSE, order=order, queue=(bidding.bidder,), bidder=bidding.bidder
            )
        if call is Call.HOKUM:  # only in R2_OPEN (bid_legal checked)
            # R17: only the players after h in bidding order answer.
            after = order[order.index(seat) + 1 :]
            if after:
                return Bidding(stage=Stage.R2_RESPONSE, order=order, queue=after, bidder=seat)
            return Bidding(stage=Stage.R2_CHOOSE, order=order, queue=(seat,), bidder=seat)
        return _contract(bidding, seat, call, 2, face_up, None)  # R18: final at once

    # R2_CHOOSE
    return _contract(bidding, seat, call, 2, face_up, bid.suit)


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


@fast_init
@dataclass(frozen=True, slots=True)
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


def doubling_allowed(contract: Contract, scores: tuple[int, int], ruleset: Ruleset) -> bool:
    """R22: Hokum always; Sun only if the declarer's team is above and the opponents below."""
    if contract.mode is Mode.HOKUM:
        return True
    threshold = ruleset.sun_doubling_threshold
    team = contract.bidder_team
    if ruleset.sun_doubling_opponents_max is not None:  # S9: opponents at 100 or less
        return scores[team] > threshold and scores[1 - team] <= ruleset.sun_doubling_opponents_max
    return scores[team] > threshold and scores[1 - team] < threshold


def ladder_start(contract: Contract) -> Ladder:
    declarer = contract.declarer
    # R21: the opponents in play order starting from next(declarer).
    return Ladder(rung=Rung.DOUBLE, queue=((declarer + 1) % 4, (declarer + 3) % 4))


def _chooses_lock(rung: Rung | None, contract: Contract, ruleset: Ruleset) -> bool:
    # S10: in Hokum the caller of Double and of Four says open or closed.
    return (
        ruleset.lock_chosen_by_caller
        and contract.mode is Mode.HOKUM
        and rung in (Rung.DOUBLE, Rung.FOUR)
    )


def ladder_legal(ladder: Ladder, contract: Contract, ruleset: Ruleset) -> list[Double]:
    """Pass and the one raise open now; a raise whose caller chooses the lock (S10, S11)
    appears twice, open then closed."""
    assert ladder.rung is not None
    return list(_LADDER_CALLS[ladder.rung][_chooses_lock(ladder.rung, contract, ruleset)])


# Per rung, [the caller chooses the lock]: the calls ``ladder_legal`` lists, made once.
_LADDER_CALLS = {
    rung: (
        (Double(DoubleCall.PASS), Double(DoubleCall(rung.value))),
        (
            Double(DoubleCall.PASS),
            Double(DoubleCall(rung.value), locked=False),
            Double(DoubleCall(rung.value), locked=True),
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
        return Double(double.call, locked=bool(double.locked))
    return Double(double.call)


def ladder_locked(ladder: Ladder, contract: Contract, ruleset: Ruleset) -> bool:
    """R23: Hokum at x2 or x4 (not Gahwa) is locked; under S10 only if that level's caller
    chose closed."""
    if contract.mode is not Mode.HOKUM or ladder.multiplier not in (2, 4) or ladder.gahwa:
        return False
    return ladder.closed if ruleset.lock_chosen_by_caller else True


def ladder_apply(ladder: Ladder, double: Double, contract: Contract, ruleset: Ruleset) -> Ladder:
    """Apply ``double`` (already normalized) by the seat to act. Raises IllegalMove."""
    if double not in ladder_legal(ladder, contract, ruleset):
        raise IllegalMove("illegal_call", f"{double.call.value} is not open now")
    seat = ladder.to_act
    rung = ladder.rung
    if double.call is DoubleCall.PASS:
        if rung is Rung.DOUBLE and len(ladder.queue) > 1:
            return Ladder(rung=rung, queue=ladder.queue[1:])
        return Ladder(
            rung=None,
            queue=(),
            multiplier=ladder.multiplier,
            doubler=ladder.doubler,
            closed=ladder.closed,
        )
    assert rung is not None
    if rung is Rung.GAHWA:  # R24
        return Ladder(rung=None, queue=(), multiplier=4, doubler=ladder.doubler, gahwa=True)
    doubler = seat if rung is Rung.DOUBLE else ladder.doubler
    assert doubler is not None
    closed = bool(double.locked)  # Triple is always open (S10)
    if ruleset.sun_double_only and contract.mode is Mode.SUN and rung is Rung.DOUBLE:
        # S8: Sun has one step; play starts at once.
        return Ladder(rung=None, queue=(), multiplier=2, doubler=doubler)
    # Triple and Gahwa belong to the declarer, Four to the doubler (R21).
    next_rung = _NEXT_RUNG[rung]
    next_seat = doubler if next_rung is Rung.FOUR else contract.declarer
    return Ladder(
        rung=next_rung,
        queue=(next_seat,),
        multiplier=ladder.multiplier + 1,
        doubler=doubler,
        closed=closed,
    )
