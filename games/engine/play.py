"""Play: legal cards, the lock on leading trump, trick winners and abnat (R23, R25-R28)."""

from __future__ import annotations

from .cards import PLAIN_STRENGTH, SUIT_MASK, TRUMP_STRENGTH, Card, Suit, card_value

LAST_TRICK_BONUS = 10  # R6
TRICKS_PER_ROUND = 8  # R28

# R5 abnat per card, one row per trump suit and a last row for Sun (no trump): the bots' playouts
# close thousands of tricks per decision, so the values are looked up, not recomputed.
_VALUES = tuple(tuple(card_value(c, t) for c in range(32)) for t in (0, 1, 2, 3, None))


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


def trick_abnat(cards: tuple[Card, ...] | list[Card], trump: Suit | None) -> int:
    values = _VALUES[4 if trump is None else trump]
    return sum(values[c] for c in cards)


def close_trick(
    cards: tuple[Card, ...], leader: int, trump: Suit | None, index: int
) -> tuple[int, int]:
    """R27, R28, R6: (winning seat, abnat it collects) of the complete trick ``cards`` led by
    ``leader``; ``index`` is its 0-based number in the round (the last adds 10)."""
    winner = (leader + trick_winner(cards, trump)) % 4
    abnat = trick_abnat(cards, trump)
    if index == TRICKS_PER_ROUND - 1:
        abnat += LAST_TRICK_BONUS
    return winner, abnat
