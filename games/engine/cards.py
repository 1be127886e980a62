"""Cards, suits, ranks and their values (R3-R5, R7).

A card is a small int, ``suit * 8 + rank``, with suits in the order S H D C and ranks in
the natural order A K Q J 10 9 8 7 (R7). Sorting cards as ints therefore gives exactly the
record format's sort order, and a hand is a 32-bit mask, which keeps the engine fast enough
for bots that simulate thousands of tricks per decision.
"""

from __future__ import annotations

from collections.abc import Iterable

Card = int
Suit = int

SUITS = "SHDC"
RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7")
ACE, KING, QUEEN, JACK, TEN, NINE, EIGHT, SEVEN = range(8)

# R4: higher is stronger.  Indexed by natural rank.
PLAIN_STRENGTH = (7, 5, 4, 3, 6, 2, 1, 0)  # A 10 K Q J 9 8 7
TRUMP_STRENGTH = (5, 3, 2, 7, 4, 6, 1, 0)  # J 9 A 10 K Q 8 7
# R5: abnat.
PLAIN_VALUE = (11, 4, 3, 2, 10, 0, 0, 0)
TRUMP_VALUE = (11, 4, 3, 20, 10, 14, 0, 0)

SUIT_MASK = tuple(0xFF << (8 * s) for s in range(4))
FULL_MASK = (1 << 32) - 1
DECK: tuple[Card, ...] = tuple(range(32))

_BY_NAME = {f"{r}{s}": si * 8 + ri for si, s in enumerate(SUITS) for ri, r in enumerate(RANKS)}
_NAMES = {v: k for k, v in _BY_NAME.items()}


def parse_card(text: object) -> Card:
    """``"10S"`` -> card. Raises ValueError for anything that is not one of the 32 cards."""
    if not isinstance(text, str) or text not in _BY_NAME:
        raise ValueError(f"not a card: {text!r}")
    return _BY_NAME[text]


def parse_suit(text: object) -> Suit:
    if not isinstance(text, str) or len(text) != 1 or text not in SUITS:
        raise ValueError(f"not a suit: {text!r}")
    return SUITS.index(text)


def card_str(card: Card) -> str:
    return _NAMES[card]


def suit_str(suit: Suit) -> str:
    return SUITS[suit]


def suit_of(card: Card) -> Suit:
    return card >> 3


def rank_of(card: Card) -> int:
    return card & 7


def make_card(suit: Suit, rank: int) -> Card:
    return suit * 8 + rank


def mask_of(cards: Iterable[Card]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def cards_of(mask: int) -> list[Card]:
    """The cards of a mask, in record sort order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def card_value(card: Card, trump: Suit | None) -> int:
    rank = card & 7
    return TRUMP_VALUE[rank] if trump is not None and card >> 3 == trump else PLAIN_VALUE[rank]


def card_names(cards: Iterable[Card]) -> list[str]:
    return [_NAMES[c] for c in sorted(cards)]
