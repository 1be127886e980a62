"""A deliberately plain restatement of S5-S7 legality and of the S22 Sawa judgement, written
from rules-saudi.md and sharing no code with the engine's search (no memo, no pruning, no
equivalent-card cut): every play sequence to the end, cards as (suit, rank) pairs."""

from __future__ import annotations

from collections.abc import Sequence

# R4, high to low, by natural rank index A K Q J 10 9 8 7 = 0..7.
TRUMP_ORDER = (3, 5, 0, 4, 1, 2, 6, 7)  # J 9 A 10 K Q 8 7
PLAIN_ORDER = (0, 4, 1, 2, 3, 5, 6, 7)  # A 10 K Q J 9 8 7

Card = tuple[int, int]  # (suit, natural rank)


def power(card: Card, led: int, trump: int | None) -> int:
    suit, rank = card
    if suit == trump:
        return 100 - TRUMP_ORDER.index(rank)
    if suit == led:
        return 50 - PLAIN_ORDER.index(rank)
    return 0


def winner_index(trick: Sequence[Card], trump: int | None) -> int:
    led = trick[0][0]
    powers = [power(card, led, trump) for card in trick]
    return powers.index(max(powers))


def legal(
    hand: Sequence[Card], trick: Sequence[Card], trump: int | None, locked: bool
) -> list[Card]:
    if not trick:
        if locked and trump is not None and any(s != trump for s, _ in hand):
            return [x for x in hand if x[0] != trump]  # R23
        return list(hand)
    led = trick[0][0]
    same = [x for x in hand if x[0] == led]
    if trump is None:
        return same or list(hand)  # Sun: R26
    best = winner_index(trick, trump)
    partner_wins = best == len(trick) - 2
    top = trick[best]
    higher = [x for x in hand if x[0] == trump and power(x, led, trump) > power(top, led, trump)]
    if same:
        if led == trump and not partner_wins:
            return higher or same  # S5(b)
        return same  # S5(a), S5(c)
    trumps = [x for x in hand if x[0] == trump]
    if partner_wins or not trumps:
        return list(hand)  # S7, S6 without trumps
    if top[0] == trump:
        return higher or trumps  # S6: over-trump, else under-trump
    return trumps  # S6


def claim_holds(hands: list[list[Card]], claimant: int, trump: int | None, locked: bool) -> bool:
    team = claimant % 2

    def trick(leader: int, cards: list[Card]) -> bool:
        if len(cards) == 4:
            win = (leader + winner_index(cards, trump)) % 4
            if win % 2 != team:
                return False
            if not hands[win]:
                return True
            return trick(win, [])
        seat = (leader + len(cards)) % 4
        results = []
        for card in legal(hands[seat], cards, trump, locked):
            hands[seat].remove(card)
            results.append(trick(leader, [*cards, card]))
            hands[seat].append(card)
        return any(results) if seat % 2 == team else all(results)

    return trick(claimant, [])
