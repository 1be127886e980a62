"""Deals and builders shared by the `saudi` ruleset tests (rules-saudi.md)."""

from __future__ import annotations

from games.engine.bidding import Contract, Mode
from games.engine.cards import Card, parse_card
from games.engine.moves import Call, Double, DoubleCall
from games.engine.rules import playing_state
from games.engine.rulesets import SAUDI
from games.engine.state import GameState, Phase
from tests.engine.helpers import PLAIN_HANDS, calls, dealt, mask

# Hokum spades by seat 2 (dealer 0, face-up 8S); seat 1 leads trick 1 (S4). Seats 2 and 3 are
# void in hearts, seat 3's trumps all rank below 9S, seat 1 holds AS among non-trumps.
HOKUM_HANDS = {
    0: "JS AH KH JH 9H 7H QC 7C",
    1: "QH 10H 8H AS JC 10C 9C 8C",
    2: "9S 8S 7S AD QD JD 10D 9D",
    3: "KS QS 10S KD 8D 7D AC KC",
}
HOKUM_BIDDING = "1 pass, 2 hokum, 3 pass, 0 pass, 1 pass, 2 hokum"


def hokum_dealt(scores: tuple[int, int] = (0, 0)) -> GameState:
    return dealt(HOKUM_HANDS, recipient=2, face_up="8S", scores=scores, ruleset=SAUDI)


def hokum_doubling(scores: tuple[int, int] = (0, 0)) -> GameState:
    state = calls(hokum_dealt(scores), HOKUM_BIDDING)
    assert state.phase is Phase.DOUBLING
    return state


def sun_by_1(scores: tuple[int, int]) -> GameState:
    """PLAIN_HANDS, seat 1 calls Sun at once (no claimants, R14)."""
    return calls(
        dealt(PLAIN_HANDS, recipient=1, face_up="KS", scores=scores, ruleset=SAUDI), "1 sun"
    )


def dbl(call: str, locked: bool | None = None) -> Double:
    return Double(DoubleCall(call), locked)


def hokum_contract(trump: str = "S", declarer: int = 2) -> Contract:
    face = parse_card("8" + trump)
    return Contract(Call.HOKUM, Mode.HOKUM, face >> 3, declarer, declarer, 1, face)


def sun_contract(declarer: int = 2, face_up: str = "8H") -> Contract:
    return Contract(Call.SUN, Mode.SUN, None, declarer, declarer, 1, parse_card(face_up))


def position(
    hands: dict[int, str],
    *,
    leader: int,
    trick: tuple[Card, ...] = (),
    contract: Contract | None = None,
) -> GameState:
    """A saudi play-phase state of trick 1 with these hands (any sizes) and trick so far."""
    return playing_state(
        ruleset=SAUDI,
        contract=contract or hokum_contract(),
        hands=(mask(hands[0]), mask(hands[1]), mask(hands[2]), mask(hands[3])),
        dealer=0,
        scores=(0, 0),
        leader=leader,
        trick=trick,
    )
