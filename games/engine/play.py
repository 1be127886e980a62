"""Play: legal cards, the lock on leading trump, trick winners and abnat (R23, R25-R28)."""

from __future__ import annotations

from .cards import PLAIN_STRENGTH, SUIT_MASK, TRUMP_STRENGTH, Card, Suit, card_value

LAST_TRICK_BONUS = 10  # R6


def legal_play_mask(hand: int, trick: tuple[Card, ...], trump: Suit | None, locked: bool) -> int:
    """The cards of ``hand`` that may be played to ``trick`` (cards so far, leader first)."""
    if not trick:
        if locked and trump is not None:
            # R23: no trump lead while holding a non-trump; an all-trump hand leads any trump.
            plain = hand & ~SUIT_MASK[trump]
            return plain or hand
        return hand
    # R26: follow suit if able, otherwise anything.
    follow = hand & SUIT_MASK[trick[0] >> 3]
    return follow or hand


def trick_winner(cards: tuple[Card, ...], trump: Suit | None) -> int:
    """R27: index in ``cards`` of the winning card."""
    led = cards[0] >> 3
    best_index = 0
    best_key = -1
    for i, card in enumerate(cards):
        suit = card >> 3
        if suit == trump:
            key = 8 + TRUMP_STRENGTH[card & 7]
        elif suit == led:
            key = PLAIN_STRENGTH[card & 7]
        else:
            continue
        if key > best_key:
            best_index, best_key = i, key
    return best_index


def trick_abnat(cards: tuple[Card, ...], trump: Suit | None) -> int:
    return sum(card_value(c, trump) for c in cards)
