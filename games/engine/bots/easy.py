"""The easy bot: quick rules of thumb for every decision, from the observation only."""

from __future__ import annotations

import random

from ..bidding import Mode
from ..moves import Bid, Call, Declare, Double, DoubleCall, Move, Play
from ..observation import Observation
from ..state import Phase
from .handeval import has_trump_control, hokum_strength, sun_strength, trump_count
from .knowledge import played_mask
from .policy import heuristic_card

# Bidding thresholds on handeval's point counts, for the 5 dealt cards plus the face-up card
# when this seat would receive it (R9).
HOKUM_BID = 5.0
SUN_BID = 2.6
# A Sun over someone's Hokum, or over the partner's, needs a clearly better hand.
SUN_OVERCALL = 3.2
# Doubling thresholds (8-card hands): doubling is rare because a failed double costs double.
DOUBLE_HOKUM = 8.0
DOUBLE_SUN = 4.2
TRIPLE_HOKUM = 10.0
TRIPLE_SUN = 5.0


def choose(obs: Observation, rng: random.Random) -> Move:
    if obs.projects_suggested:  # R30: declaring never costs points, so always declare
        return Declare(obs.projects_suggested)
    if obs.phase is Phase.BIDDING:
        return choose_bid(obs)
    if obs.phase is Phase.DOUBLING:
        return choose_double(obs)
    return choose_play(obs)


def hand_mask(obs: Observation) -> int:
    mask = 0
    for card in obs.hand:
        mask |= 1 << card
    return mask


def is_round_two(obs: Observation) -> bool:
    """Round 2 has begun once the first four calls were all passes (R16)."""
    first = obs.calls[:4]
    return len(first) == 4 and all(bid.call is Call.PASS for _, bid in first)


def choose_bid(obs: Observation) -> Bid:
    assert obs.face_up is not None and obs.seat is not None
    legal = [m for m in obs.legal_moves if isinstance(m, Bid)]
    return rule_bid(hand_mask(obs), obs.face_up, legal, is_round_two(obs))


def rule_bid(hand: int, face_up: int, legal: list[Bid], round_two: bool) -> Bid:
    """The easy bot's call for a seat holding ``hand`` (its dealt cards) when ``legal`` are
    the calls open to it; also the hard bot's model of the table in simulated auctions."""
    with_face = hand | 1 << face_up
    face_suit = face_up >> 3
    sun = sun_strength(with_face)
    choose_suits = [m for m in legal if m.suit is not None]
    if choose_suits:  # R17: the round-2 Hokum bidder names trump (or switches to Sun)
        best = max(choose_suits, key=lambda m: hokum_strength(with_face, m.suit or 0))
        assert best.suit is not None
        if sun >= SUN_BID and sun * 2 > hokum_strength(with_face, best.suit):
            return Bid(Call.SUN)
        return best
    calls = {m.call for m in legal}
    if Call.PASS not in calls:  # R13: confirm Hokum or switch to Sun
        strong_sun = sun >= SUN_OVERCALL and sun * 2 > hokum_strength(with_face, face_suit)
        return Bid(Call.SUN) if strong_sun else Bid(Call.HOKUM)
    if Call.HOKUM in calls:  # an opening call, round 1 or 2
        if sun >= SUN_BID:
            return Bid(Call.SUN)
        if round_two:
            suits = [s for s in range(4) if s != face_suit]
            best_suit = max(suits, key=lambda s: hokum_strength(with_face, s))
            if _hokum_ok(with_face, best_suit):
                return Bid(Call.HOKUM)
        elif _hokum_ok(with_face, face_suit):
            return Bid(Call.HOKUM)
        return Bid(Call.PASS)
    # A response to Hokum or a "before you" claim (R12, R14, R17): only Sun is on offer.
    if sun >= SUN_OVERCALL and Call.SUN in calls:
        return Bid(Call.SUN)
    return Bid(Call.PASS)


def _hokum_ok(hand: int, trump: int) -> bool:
    return has_trump_control(hand, trump) and hokum_strength(hand, trump) >= HOKUM_BID


def choose_double(obs: Observation) -> Double:
    contract = obs.contract
    assert contract is not None and obs.seat is not None
    hand = hand_mask(obs)
    legal = [m for m in obs.legal_moves if isinstance(m, Double)]
    raise_call = next((m for m in legal if m.call is not DoubleCall.PASS), None)
    if raise_call is None or raise_call.call is DoubleCall.GAHWA:
        return Double(DoubleCall.PASS)  # Gahwa stakes the whole match: never from a heuristic
    if contract.mode is Mode.HOKUM:
        assert contract.trump is not None
        strength = hokum_strength(hand, contract.trump)
        doubling = raise_call.call in (DoubleCall.DOUBLE, DoubleCall.FOUR)
        if doubling:
            # The defenders need trumps of their own to beat a Hokum.
            enough = trump_count(hand, contract.trump) >= 3 and strength >= DOUBLE_HOKUM
        else:
            enough = strength >= TRIPLE_HOKUM
    else:
        strength = sun_strength(hand)
        threshold = DOUBLE_SUN if raise_call.call is DoubleCall.DOUBLE else TRIPLE_SUN
        enough = strength >= threshold
    if raise_call.call is DoubleCall.FOUR:
        enough = enough and strength >= DOUBLE_HOKUM + 2
    return raise_call if enough else Double(DoubleCall.PASS)


def choose_play(obs: Observation) -> Play:
    contract = obs.contract
    assert contract is not None and obs.seat is not None
    card = heuristic_card(
        hand_mask(obs),
        obs.trick,
        obs.seat,
        contract.trump,
        obs.locked,
        played_mask(obs),
        contract.bidder_team,
        # The cards the engine says are legal: the ruleset's rules (R26, or S5-S7) included.
        legal=sum(1 << m.card for m in obs.legal_moves if isinstance(m, Play)),
    )
    move = Play(card)
    if move not in obs.legal_moves:  # defensive: the policy applies the same R26/R23 filter
        return next(m for m in obs.legal_moves if isinstance(m, Play))
    return move
