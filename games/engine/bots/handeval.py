"""Hand-strength counts for bidding and doubling (rough point counts, not probabilities).

The weights reflect R4/R5: in Hokum the trump J and 9 are the two top cards and worth 20 and
14 abnat; in Sun every suit is led by A then 10, so Aces and guarded 10s take tricks.
"""

from __future__ import annotations

from ..cards import ACE, EIGHT, JACK, KING, NINE, QUEEN, SEVEN, SUIT_MASK, TEN, Suit

_TRUMP_WEIGHT = {JACK: 3.0, NINE: 2.2, ACE: 1.5, TEN: 1.2, KING: 0.7, QUEEN: 0.6, EIGHT: 0.5}
_TRUMP_WEIGHT[SEVEN] = 0.5


def _ranks(hand: int, suit: Suit) -> set[int]:
    bits = (hand & SUIT_MASK[suit]) >> (8 * suit)
    return {r for r in range(8) if bits >> r & 1}


def side_strength(hand: int, suit: Suit) -> float:
    """Sure-ish tricks in a plain suit: the Ace, and a 10 once the Ace is ours or guarded."""
    ranks = _ranks(hand, suit)
    score = 0.0
    if ACE in ranks:
        score += 1.0
        if TEN in ranks:
            score += 0.8
            if KING in ranks:
                score += 0.3
    elif TEN in ranks and len(ranks) >= 3:
        score += 0.3
    return score


def hokum_strength(hand: int, trump: Suit) -> float:
    ranks = _ranks(hand, trump)
    score = sum(_TRUMP_WEIGHT[r] for r in ranks)
    if len(ranks) >= 4:  # length controls the hand once trumps are drawn
        score += 0.5 * (len(ranks) - 3)
    for suit in range(4):
        if suit != trump:
            score += 1.2 * side_strength(hand, suit)
    return score


def has_trump_control(hand: int, trump: Suit) -> bool:
    """The J or the 9 of trump: without one of them a Hokum is usually lost."""
    ranks = _ranks(hand, trump)
    return JACK in ranks or NINE in ranks


def sun_strength(hand: int) -> float:
    return sum(side_strength(hand, s) for s in range(4))


def trump_count(hand: int, trump: Suit) -> int:
    return (hand & SUIT_MASK[trump]).bit_count()
