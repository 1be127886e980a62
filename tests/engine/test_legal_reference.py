"""The engine's legal moves against a reference written here from rules.md alone.

The playouts' check that ``legal_moves`` lists what ``apply`` accepts compares two functions
that share one implementation. This reference shares nothing with the engine: cards are their
names, hands are re-dealt from the deck by R8/R9, the bidding is re-run from the calls by the
state machine of R10-R19, the ladder from the doubling calls by R21-R23, the tricks from the
plays by R25-R27, and legal cards follow R26 with the lock of R23. At thousands of random
positions it must agree with ``legal_moves``, and every candidate move (all 32 cards, every
call with and without every suit, every doubling call), tried through ``apply`` by every seat,
must be accepted exactly when the reference says it is legal for the seat to act."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from games.engine.cards import card_str
from games.engine.errors import IllegalMove
from games.engine.moves import Bid, Call, Declare, Double, DoubleCall, Move, Play
from games.engine.projects import best_declaration
from games.engine.rules import apply, legal_moves, new_match, start_round, to_act
from games.engine.state import GameState, Phase

SUITS = "SHDC"
TRUMP_ORDER = ["J", "9", "A", "10", "K", "Q", "8", "7"]  # R4, high to low
PLAIN_ORDER = ["A", "10", "K", "Q", "J", "9", "8", "7"]  # R4
ALL_CARDS = [card_str(c) for c in range(32)]
CANDIDATES: list[Move] = [
    *(Play(c) for c in range(32)),
    *(Bid(call, suit) for call in Call for suit in (None, 0, 1, 2, 3)),
    *(Double(call) for call in DoubleCall),
]


def suit(card: str) -> str:
    return card[-1]


def rank(card: str) -> str:
    return card[:-1]


# --- Bidding, R10-R19 ------------------------------------------------------------------------


@dataclass
class RefBidding:
    order: list[int]
    face_suit: str
    stage: str = "r1_open"
    queue: list[int] = field(default_factory=list)
    bidder: int | None = None
    kind: str | None = None
    result: tuple[str, int, str | None] | None = None  # (kind, declarer, trump) when done
    redeal: bool = False

    def __post_init__(self) -> None:
        self.queue = list(self.order)

    def ashkal_ok(self, seat: int) -> bool:
        return self.order.index(seat) >= 2  # R10: the dealer's left and the dealer

    def legal(self) -> set[tuple[str, str | None]]:
        """(call, suit) pairs open to the seat at the head of the queue."""
        seat = self.queue[0]
        stage = self.stage
        if stage == "r1_confirm":  # R13
            return {("hokum", None), ("sun", None)}
        if stage == "r2_choose":  # R17: Sun, or Hokum in a suit other than the face-up one
            return {("sun", None)} | {("hokum", s) for s in SUITS if s != self.face_suit}
        calls: set[tuple[str, str | None]] = {("pass", None), ("sun", None)}
        if stage in ("r1_open", "r2_open"):  # R11, R16; no second Hokum in R12/R17 answers
            calls.add(("hokum", None))
        if self.ashkal_ok(seat):
            calls.add(("ashkal", None))
        return calls

    def done(self, kind: str, declarer: int, trump: str | None) -> None:
        self.result = (kind, declarer, trump)
        self.queue = []

    def claim(self, caller: int, kind: str) -> None:
        # R14: the caller's opponents who come before the caller, in priority order.
        before = self.order[: self.order.index(caller)]
        claimants = [s for s in before if (s - caller) % 2 == 1]
        if not claimants:
            self.done(kind, caller, None)
            return
        self.stage, self.queue, self.bidder, self.kind = "sun_claim", claimants, caller, kind

    def call(self, call: str, suit_name: str | None) -> None:
        seat = self.queue[0]
        rest = self.queue[1:]
        stage = self.stage
        if stage == "r1_open":
            if call == "pass":
                self.queue = rest
                if not rest:  # R16
                    self.stage, self.queue = "r2_open", list(self.order)
            elif call == "hokum":  # R12: the three others from next(h), wrapping
                self.stage, self.bidder = "r1_response", seat
                self.queue = [(seat + i) % 4 for i in (1, 2, 3)]
            else:
                self.claim(seat, call)
        elif stage == "r1_response":
            if call == "pass":
                self.queue = rest
                if not rest:
                    assert self.bidder is not None
                    self.stage, self.queue = "r1_confirm", [self.bidder]
            else:
                self.claim(seat, call)
        elif stage == "r1_confirm":  # R13
            self.done(call, seat, self.face_suit if call == "hokum" else None)
        elif stage == "sun_claim":
            assert self.bidder is not None and self.kind is not None
            if call == "pass":
                self.queue = rest
                if not rest:
                    self.done(self.kind, self.bidder, None)
            else:
                self.done(call, seat, None)
        elif stage in ("r2_open", "r2_response"):
            if call == "pass":
                self.queue = rest
                if not rest:
                    if stage == "r2_open":
                        self.redeal = True  # R19
                    else:
                        assert self.bidder is not None
                        self.stage, self.queue = "r2_choose", [self.bidder]
            elif call == "hokum":  # R17: only the players after h answer
                after = self.order[self.order.index(seat) + 1 :]
                self.bidder = seat
                if after:
                    self.stage, self.queue = "r2_response", after
                else:
                    self.stage, self.queue = "r2_choose", [seat]
            else:
                self.done(call, seat, None)  # R18: final at once
        else:  # r2_choose
            self.done(call, seat, suit_name)


# --- The round as the rules define it ----------------------------------------------------


@dataclass
class RefRound:
    to_act: int | None
    legal: set[Move]
    hands: dict[int, set[str]]
    phase: str


def reference(state: GameState) -> RefRound:
    """The seat to act, its legal moves and every hand, from the deck and the actions only."""
    dealer = state.dealer
    order = [(dealer + i) % 4 for i in (1, 2, 3, 4)]  # R10
    deck = [card_str(c) for c in state.deck]
    hands: dict[int, set[str]] = {s: set() for s in range(4)}
    for i, seat in enumerate(order):  # R8: 3 each, then 2 each; D[20] face up
        hands[seat] |= set(deck[3 * i : 3 * i + 3]) | set(deck[12 + 2 * i : 14 + 2 * i])
    face_up = deck[20]
    bidding = RefBidding(order, suit(face_up))
    actions = list(state.actions)
    while actions and isinstance(actions[0][1], Bid):
        seat, move = actions.pop(0)
        assert isinstance(move, Bid)
        assert seat == bidding.queue[0]
        bidding.call(move.call.value, None if move.suit is None else SUITS[move.suit])
    if bidding.result is None:
        legal: set[Move] = {
            Bid(Call(c), None if s is None else SUITS.index(s)) for c, s in bidding.legal()
        }
        return RefRound(bidding.queue[0], legal, hands, "bidding")
    kind, declarer, trump = bidding.result
    recipient = (declarer + 2) % 4 if kind == "ashkal" else declarer  # R9, R15
    position = 21
    for seat in order:  # R9: stock in bidding order, 3 to each, 2 (+ face-up) to the recipient
        count = 2 if seat == recipient else 3
        hands[seat] |= set(deck[position : position + count])
        position += count
    hands[recipient].add(face_up)

    # R21-R22: the ladder, from the doubling calls.
    bidder_team = declarer % 2
    scores = state.scores
    ladder_open = trump is not None or (scores[bidder_team] > 100 and scores[1 - bidder_team] < 100)
    multiplier, gahwa, doubler = 1, False, None
    queue = [(declarer + 1) % 4, (declarer + 3) % 4] if ladder_open else []
    rung = "double" if ladder_open else None
    while actions and isinstance(actions[0][1], Double):
        seat, move = actions.pop(0)
        assert isinstance(move, Double)
        assert seat == queue[0]
        if move.call is DoubleCall.PASS:
            queue = queue[1:] if rung == "double" else []
        else:
            assert move.call.value == rung
            if rung == "gahwa":
                gahwa, queue = True, []
            else:
                multiplier += 1
                if rung == "double":
                    doubler = seat
                rung = {"double": "triple", "triple": "four", "four": "gahwa"}[rung]
                queue = [doubler if rung == "four" else declarer]  # type: ignore[list-item]
        if not queue:
            rung = None
    if queue:
        assert rung is not None
        legal_doubles: set[Move] = {Double(DoubleCall.PASS), Double(DoubleCall(rung))}
        return RefRound(queue[0], legal_doubles, hands, "doubling")
    # R23: Hokum at x2 or x4, not Gahwa, is locked.
    locked = trump is not None and multiplier in (2, 4) and not gahwa

    # R25-R28: the declarer leads; the trick's winner leads the next.
    leader = declarer
    trick: list[str] = []
    tricks = 0
    for seat, move in actions:
        if isinstance(move, Declare):
            continue
        assert isinstance(move, Play)
        card = card_str(move.card)
        assert seat == (leader + len(trick)) % 4
        hands[seat].remove(card)
        trick.append(card)
        if len(trick) == 4:
            leader = (leader + trick_winner(trick, trump)) % 4
            trick = []
            tricks += 1
    if tricks == 8:
        return RefRound(None, set(), hands, "over")
    seat = (leader + len(trick)) % 4
    cards = legal_cards(hands[seat], trick, trump, locked)
    return RefRound(seat, {Play(ALL_CARDS.index(c)) for c in cards}, hands, "playing")


def trick_winner(trick: list[str], trump: str | None) -> int:
    """R27: the highest trump, else the highest card of the led suit."""
    trumps = [i for i, c in enumerate(trick) if suit(c) == trump]
    if trumps:
        return min(trumps, key=lambda i: TRUMP_ORDER.index(rank(trick[i])))
    led = suit(trick[0])
    following = [i for i, c in enumerate(trick) if suit(c) == led]
    return min(following, key=lambda i: PLAIN_ORDER.index(rank(trick[i])))


def legal_cards(hand: set[str], trick: list[str], trump: str | None, locked: bool) -> set[str]:
    if not trick:
        if locked and trump is not None:
            # R23: no trump lead while holding a non-trump; an all-trump hand leads any trump.
            return {c for c in hand if suit(c) != trump} or set(hand)
        return set(hand)  # R26: lead any card
    # R26: follow the led suit if able (any card of it); void, any card, trump or not.
    return {c for c in hand if suit(c) == suit(trick[0])} or set(hand)


# --- Random positions ---------------------------------------------------------------------


def positions(seed: int, rounds: int) -> list[GameState]:
    """Every state of ``rounds`` random deals, with round 2 and the ladder well visited and
    matches started at scores that open the Sun ladder (R22) now and then."""
    rng = random.Random(seed)
    out = []
    for _ in range(rounds):
        scores = rng.choice([(0, 0), (120, 40), (40, 120), (100, 99), (101, 99)])
        state = new_match(dealer=rng.randrange(4), scores=scores)
        deck = list(range(32))
        rng.shuffle(deck)
        state = start_round(state, deck)
        while state.phase in (Phase.BIDDING, Phase.DOUBLING, Phase.PLAYING):
            out.append(state)
            seat = to_act(state)
            assert seat is not None
            moves = legal_moves(state)
            if state.phase is Phase.PLAYING and not state.tricks and rng.random() < 0.3:
                assert state.contract is not None
                projects = best_declaration(state.hands[seat], state.contract.mode)
                if projects and all(s != seat for s, _ in state.declarations):
                    state = apply(state, seat, Declare(projects))
                    out.append(state)
            pass_move: Move = (
                Bid(Call.PASS) if state.phase is Phase.BIDDING else Double(DoubleCall.PASS)
            )
            # Passing more often than uniformly reaches round 2 (R16-R19) in many deals.
            if pass_move in moves and rng.random() < 0.65:
                state = apply(state, seat, pass_move)
            else:
                state = apply(state, seat, rng.choice(moves))
    return out


def accepted(state: GameState, seat: int) -> set[Move]:
    out = set()
    for move in CANDIDATES:
        try:
            apply(state, seat, move)
        except IllegalMove:
            continue
        out.add(move)
    return out


def test_legal_moves_match_the_reference() -> None:
    seen = {"bidding": 0, "doubling": 0, "playing": 0}
    locked_leads = round2_choices = 0
    for state in positions(101, 700):
        ref = reference(state)
        assert ref.phase == state.phase.value
        assert to_act(state) == ref.to_act
        for seat in range(4):  # the deal (R8, R9) as the rules define it
            assert {card_str(c) for c in range(32) if state.hands[seat] >> c & 1} == ref.hands[seat]
        assert set(legal_moves(state)) == ref.legal, (state.phase, state.actions)
        seen[ref.phase] += 1
        if state.locked and not state.trick and ref.phase == "playing":
            locked_leads += 1
        round2_choices += any(isinstance(m, Bid) and m.suit is not None for m in ref.legal)
    assert seen["playing"] > 10_000 and seen["bidding"] > 3000 and seen["doubling"] > 300
    assert locked_leads > 50  # R23 was exercised
    assert round2_choices > 30  # R17 was exercised


def test_apply_accepts_exactly_the_reference_moves() -> None:
    """Every candidate by the seat to act is accepted iff the reference lists it; by any other
    seat, never (not_your_turn)."""
    checked = 0
    for i, state in enumerate(positions(202, 150)):
        ref = reference(state)
        assert ref.to_act is not None
        assert accepted(state, ref.to_act) == ref.legal, (state.phase, state.actions)
        if i % 7 == 0:
            for seat in range(4):
                if seat != ref.to_act:
                    assert accepted(state, seat) == set()
        checked += 1
    assert checked > 3000


def test_reference_agrees_with_the_rules_examples() -> None:
    # E14, E15 (R26): Sun, 10D led.
    assert legal_cards({"AD", "7D", "KC", "AS"}, ["10D"], None, False) == {"AD", "7D"}
    assert legal_cards({"KC", "AS"}, ["10D"], None, False) == {"KC", "AS"}
    # E18, E19, E20 (R23): Hokum spades, locked at x2; all trumps; open at x3.
    assert legal_cards({"JS", "9S", "AH", "7D"}, [], "S", True) == {"AH", "7D"}
    assert legal_cards({"JS", "9S"}, [], "S", True) == {"JS", "9S"}
    assert legal_cards({"JS", "AH"}, [], "S", False) == {"JS", "AH"}
    # R27: a trump beats the led suit; off-suit cards never win.
    assert trick_winner(["AH", "7S", "10H", "AD"], "S") == 1
    assert trick_winner(["KH", "AD", "10H", "AC"], None) == 2
    assert trick_winner(["9S", "JS", "AS", "10S"], "S") == 1
