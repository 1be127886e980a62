"""What the other seats' calls, doubles, declarations and cards say about their hands, for the
hard bot's deals.

``knowledge.infer`` keeps to certain facts (voids, pinned cards), so a uniform deal within them
ignores everything the table has *said*: the Hokum bidder usually holds the trump Jack or 9, a
doubler holds trumps, a player who declared a "50" holds a four-card run, a player who
ducked a trick it could have taken cheaply probably could not. Here each such fact becomes a
likelihood factor: a deal consistent with what a seat did keeps its weight, a deal in which a
seat would have had to act against its hand loses part of it. The hard bot deals many hands
within the certain facts, weighs them with ``Beliefs.weight`` and keeps the likely ones.

The factors of the calls are fitted to how the bots bid (below), and none is zero: a deal is
never ruled out by a habit, only by a rule, since people bid and play less by rule than bots.
Everything is read from the observation alone: the calls in order, the doubles, the public
declarations and the tricks.

What compulsory trumping proves (rules-saudi.md S5-S7) is certain, so it is not a factor
here: ``knowledge.infer`` excludes it from every level's deals.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..bidding import Mode, Stage, bid_apply, bidding_start
from ..cards import ACE, JACK, NINE, SUIT_MASK, Card, Suit, make_card
from ..moves import Bid, Call, DoubleCall
from ..observation import Observation
from ..play import VALUES
from ..projects import available_projects
from ..rulesets import Ruleset
from ..state import Phase
from .policy import heuristic_card

FULL = 0xFFFFFFFF
_ACES = sum(1 << make_card(suit, ACE) for suit in range(4))

# Likelihood factors: a deal where a seat's cards are unlike what its action suggests keeps this
# share of its weight. Fitted to what the bots do (self-play of the easy and normal levels,
# 2,000 rounds: the share of each holding among the seats that made the call, over its share
# among all seats), and floored for people, who bid less by rule: of Hokum bidders 99% hold
# the trump J or 9 (40% of all hands), and most hold 3 trumps or more; Sun bidders hold 2 Aces
# or more three times as often as a hand does; an opening pass with the face-up suit's J and 9
# is a quarter as likely as the holding.
BIDDER_WITHOUT_TRUMP_CONTROL = 0.05  # a Hokum bidder holding neither the trump J nor the 9
BIDDER_TRUMPS = {0: 0.1, 1: 0.1, 2: 0.3, 3: 0.8}  # ... by its number of trumps (4+: 1)
SUN_BIDDER_ACES = {0: 0.05, 1: 0.2, 2: 0.65}  # a Sun bidder by its Aces (3+: 1)
PASSED_WITH_JACK_AND_NINE = 0.3  # an opening pass holding the face-up suit's J and 9
# The bots seldom double, so these are judgement, kept mild.
DOUBLER_SHORT_OF_TRUMPS = 0.4  # a Hokum doubler with fewer than three trumps
DOUBLER_WITHOUT_TRUMP_CONTROL = 0.5
SUN_DOUBLER_ACES = {0: 0.35, 1: 0.7}
UNDECLARED_PROJECT = 0.5  # a seat that did not declare while holding a project
UNLIKE_THE_TABLE = 0.8  # a card other than the one a sensible player would have played


@dataclass(frozen=True, slots=True)
class _Call:
    seat: int
    call: Bid
    stage: Stage


@dataclass(frozen=True, slots=True)
class _Play:
    seat: int
    card: Card
    trick: tuple[Card, ...]  # the cards before it in its trick
    played: int  # every card played before it this round


@dataclass(frozen=True, slots=True)
class Beliefs:
    """The evidence one observation holds about the other seats' hands."""

    seat: int
    trump: Suit | None
    mode: Mode | None
    declarer: int | None
    face_suit: Suit | None
    locked: bool
    compulsory: bool
    bidder_team: int | None
    calls: tuple[_Call, ...]
    doublers: tuple[int, ...]  # seats (other than ours) that raised the ladder as opponents
    declared: tuple[tuple[int, tuple[str, ...]], ...]  # (seat, kinds), other seats
    silent: tuple[int, ...]  # other seats whose first turn of trick 1 passed with no declaration
    plays: tuple[_Play, ...]  # the other seats' cards this round

    def weight(self, holdings: tuple[int, int, int, int]) -> float:
        """How likely the table's actions are if each seat held ``holdings[seat]`` this
        round (its cards now plus the ones it has played), relative to the best case 1."""
        w = 1.0
        trump = self.trump
        for call in self.calls:
            w *= _call_factor(call, holdings[call.seat], self)
        for seat in self.doublers:
            held = holdings[seat]
            if trump is not None:
                trumps = held & SUIT_MASK[trump]
                if trumps.bit_count() < 3:
                    w *= DOUBLER_SHORT_OF_TRUMPS
                if not trumps & _CONTROL[trump]:
                    w *= DOUBLER_WITHOUT_TRUMP_CONTROL
            else:
                w *= SUN_DOUBLER_ACES.get((held & _ACES).bit_count(), 1.0)
        mode = self.mode
        if mode is not None:
            for seat, kinds in self.declared:
                if not _holds_kinds(holdings[seat], kinds, mode):
                    return 0.0  # a declared project is a fact: the seat held it
            for seat in self.silent:
                if available_projects(holdings[seat], mode):
                    w *= UNDECLARED_PROJECT
        if self.plays and self.bidder_team is not None:
            w *= self._plays_factor(holdings)
        return w

    def _plays_factor(self, holdings: tuple[int, int, int, int]) -> float:
        w = 1.0
        later = [0, 0, 0, 0]  # cards each seat plays after the one being looked at
        assert self.bidder_team is not None
        for play in reversed(self.plays):
            hand = (holdings[play.seat] & ~later[play.seat]) | 1 << play.card
            later[play.seat] |= 1 << play.card
            if not hand & (hand - 1) & ~(1 << play.card):
                continue  # its last card: no choice
            expected = heuristic_card(
                hand,
                play.trick,
                play.seat,
                self.trump,
                self.locked,
                play.played,
                self.bidder_team,
                compulsory=self.compulsory,
            )
            if expected != play.card and not _equivalent(expected, play.card, hand, self):
                w *= UNLIKE_THE_TABLE
        return w


# The trump Jack and 9 of each suit: "trump control".
_CONTROL = tuple((1 << make_card(s, JACK)) | (1 << make_card(s, NINE)) for s in range(4))


def _equivalent(a: Card, b: Card, hand: int, beliefs: Beliefs) -> bool:
    """Two small cards of one suit (worth at most 4 abnat each, a King at most) are played
    interchangeably by people and bots alike: choosing either says little."""
    if a >> 3 != b >> 3:
        return False
    values = VALUES[4 if beliefs.trump is None else beliefs.trump]
    return values[a] <= 4 and values[b] <= 4


def _holds_kinds(held: int, kinds: tuple[str, ...], mode: Mode) -> bool:
    """Whether ``held`` has disjoint projects of these kinds (R29, R30)."""
    options = available_projects(held, mode)
    if len(kinds) == 1:
        return any(p.kind.value == kinds[0] for p in options)
    for i, first in enumerate(options):
        if first.kind.value != kinds[0]:
            continue
        used = sum(1 << c for c in first.cards)
        for j, second in enumerate(options):
            if (
                j != i
                and second.kind.value == kinds[1]
                and not used & sum(1 << c for c in second.cards)
            ):
                return True
    return False


def _call_factor(call: _Call, held: int, beliefs: Beliefs) -> float:
    """The likelihood factor of one call by ``call.seat`` holding ``held`` (its 8 cards of the
    round: the 5 it bid with are among them, which keeps the factors mild)."""
    kind = call.call.call
    face_suit = beliefs.face_suit
    if kind is Call.HOKUM and call.call.suit is None and call.stage is not Stage.R1_CONFIRM:
        # A Hokum bid on the face-up suit (round 1) or a suit named later (round 2): the trump
        # of the contract if this seat became its declarer.
        if beliefs.declarer == call.seat and beliefs.trump is not None:
            trumps = held & SUIT_MASK[beliefs.trump]
            f = 1.0 if trumps & _CONTROL[beliefs.trump] else BIDDER_WITHOUT_TRUMP_CONTROL
            return f * BIDDER_TRUMPS.get(trumps.bit_count(), 1.0)
        return 1.0
    if kind in (Call.SUN, Call.ASHKAL):
        return SUN_BIDDER_ACES.get((held & _ACES).bit_count(), 1.0)
    if (
        kind is Call.PASS
        and call.stage is Stage.R1_OPEN
        and face_suit is not None
        and held & _CONTROL[face_suit] == _CONTROL[face_suit]
    ):
        return PASSED_WITH_JACK_AND_NINE
    return 1.0


def beliefs_of(obs: Observation, ruleset: Ruleset) -> Beliefs:
    """The evidence in ``obs`` about every seat but ``obs.seat``."""
    seat = obs.seat
    assert seat is not None and obs.face_up is not None
    contract = obs.contract
    calls: list[_Call] = []
    bidding = bidding_start(obs.dealer)
    for caller, bid in obs.calls:
        if caller != seat:
            calls.append(_Call(caller, bid, bidding.stage))
        try:
            result = bid_apply(bidding, bid, obs.face_up, ruleset)
        except Exception:  # a call the bidding machine would refuse cannot be in a real log
            break
        if not hasattr(result, "stage"):
            break
        bidding = result  # type: ignore[assignment]
    doublers: list[int] = []
    if contract is not None:
        for caller, double in obs.doubles:
            if caller != seat and double.call in (DoubleCall.DOUBLE, DoubleCall.FOUR):
                doublers.append(caller)
    declared = tuple(
        (d.seat, d.kinds) for d in obs.declarations if d.seat != seat and d.projects is None
    )
    silent: list[int] = []
    plays: list[_Play] = []
    if obs.phase is Phase.PLAYING:
        declared_seats = {d.seat for d in obs.declarations}
        first = [*obs.tricks[0].cards] if obs.tricks else [*obs.trick]
        leader0 = obs.tricks[0].leader if obs.tricks else obs.leader
        assert leader0 is not None
        for i in range(len(first)):
            player = (leader0 + i) % 4
            if player != seat and player not in declared_seats:
                silent.append(player)
        played = 0
        for leader, cards in [(t.leader, t.cards) for t in obs.tricks] + (
            [(obs.leader, obs.trick)] if obs.trick and obs.leader is not None else []
        ):
            for i, card in enumerate(cards):
                player = (leader + i) % 4
                if player != seat:
                    plays.append(_Play(player, card, tuple(cards[:i]), played))
                played |= 1 << card
    trump = contract.trump if contract is not None else None
    return Beliefs(
        seat=seat,
        trump=trump,
        mode=contract.mode if contract is not None else None,
        declarer=contract.declarer if contract is not None else None,
        face_suit=obs.face_up >> 3,
        locked=obs.locked,
        compulsory=ruleset.compulsory_trumping and trump is not None,
        bidder_team=contract.bidder_team if contract is not None else None,
        calls=tuple(calls),
        doublers=tuple(doublers),
        declared=declared,
        silent=tuple(silent),
        plays=tuple(plays),
    )
