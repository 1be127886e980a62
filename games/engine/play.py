"""Play: legal cards, the lock on leading trump, trick winners and abnat (R23, R25-R28), and
the Saudi compulsory trumping and over-trumping in Hokum (rules-saudi.md S5-S7).

Everything here works on ints: a card is ``suit * 8 + rank``, a hand a 32-bit mask. The values
that depend only on the trump suit are tables indexed by card, one row per trump suit and a last
row (``NO_TRUMP``) for Sun, computed once at import: the engine closes a trick per four moves and
the bots' searches close millions.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import PLAIN_STRENGTH, SUIT_MASK, TRUMP_STRENGTH, Card, Suit, card_value

LAST_TRICK_BONUS = 10  # R6
TRICKS_PER_ROUND = 8  # R28
NO_TRUMP = 4  # the table row of a Sun contract

# R5 abnat per card.
VALUES = tuple(tuple(card_value(c, t) for c in range(32)) for t in (0, 1, 2, 3, None))

# R27: a card's rank inside a trick it can win (it is of the led suit or a trump); any trump
# beats any card of another suit, so trumps rank above 8.
TRICK_RANK = tuple(
    tuple(
        8 + TRUMP_STRENGTH[c & 7] if c >> 3 == trump else PLAIN_STRENGTH[c & 7] for c in range(32)
    )
    for trump in (0, 1, 2, 3, None)
)

# S5(b)/S6: for each card taken as a trump, the mask of the trumps of its suit that beat it.
_TRUMPS_ABOVE = tuple(
    sum(1 << (c & ~7 | r) for r in range(8) if TRUMP_STRENGTH[r] > TRUMP_STRENGTH[c & 7])
    for c in range(32)
)


def legal_play_mask(
    hand: int,
    trick: tuple[Card, ...],
    trump: Suit | None,
    locked: bool,
    compulsory: bool = False,
) -> int:
    """The play rule, the one definition: the cards of ``hand`` that may be played to ``trick``
    (the cards so far, leader first). ``locked`` is the round's lock on leading trump (R23),
    ``compulsory`` the ruleset's Saudi trumping (S5-S7), which only Hokum feels. Every caller
    goes through here: the engine's moves, its legal-move lists, its fast replay, Sawa and the
    bots."""
    if not trick:
        if locked and trump is not None:
            # R23: no trump lead while holding a non-trump (an all-trump hand leads any trump).
            return hand & ~SUIT_MASK[trump] or hand
        return hand  # R26: the leader plays any card
    led = trick[0] >> 3
    follow = hand & SUIT_MASK[led]
    if not compulsory or trump is None:
        return follow or hand  # R26: follow suit if able, otherwise anything
    best = trick_winner(trick, trump)
    # S7: the partner played two plays before this seat; its card winning frees the player.
    partner_winning = best == len(trick) - 2
    winning = trick[best]
    if follow:
        if led != trump or partner_winning:
            return follow  # S5(a), S5(c); S5(b) with the partner winning: any trump
        # S5(b): trump led and an opponent's trump winning: beat it if able.
        return follow & _TRUMPS_ABOVE[winning] or follow
    trumps = hand & SUIT_MASK[trump]
    if partner_winning or not trumps:
        return hand  # S7; S6: no trump, any card
    if winning >> 3 == trump:
        # S6: over the opponent's trump if able, otherwise any trump (under-trumping).
        return trumps & _TRUMPS_ABOVE[winning] or trumps
    return trumps


def refusal_code(hand: int, trick: tuple[Card, ...], trump: Suit | None, card: Card) -> str:
    """The record format's code for ``card`` held but not legal here (record-format.md, S.3):
    ``locked_trump_lead`` on a lead, then ``must_follow_suit``, ``must_trump``,
    ``must_overtrump``."""
    if not trick:
        return "locked_trump_lead"
    if hand & SUIT_MASK[trick[0] >> 3] and card >> 3 != trick[0] >> 3:
        return "must_follow_suit"
    if card >> 3 != trump:
        return "must_trump"
    return "must_overtrump"


def trick_winner(cards: tuple[Card, ...] | list[Card], trump: Suit | None) -> int:
    """R27: index in ``cards`` of the winning card."""
    rank = TRICK_RANK[NO_TRUMP if trump is None else trump]
    first = cards[0]
    led = first >> 3
    best_index = 0
    best = rank[first]
    for i in range(1, len(cards)):
        card = cards[i]
        suit = card >> 3
        if suit in (led, trump) and rank[card] > best:
            best_index, best = i, rank[card]
    return best_index


def trick_abnat(cards: tuple[Card, ...] | list[Card], trump: Suit | None) -> int:
    values = VALUES[NO_TRUMP if trump is None else trump]
    return sum(values[c] for c in cards)


def close_trick(
    cards: Sequence[Card], leader: int, trump: Suit | None, index: int
) -> tuple[int, int]:
    """R27, R28, R6: (winning seat, abnat it collects) of the complete trick ``cards`` led by
    ``leader``; ``index`` is its 0-based number in the round (the last adds 10)."""
    row = NO_TRUMP if trump is None else trump
    return scored_trick(cards, leader, index, trump, TRICK_RANK[row], VALUES[row])


def scored_trick(
    cards: Sequence[Card],
    leader: int,
    index: int,
    trump: Suit | None,
    rank: tuple[int, ...],
    values: tuple[int, ...],
) -> tuple[int, int]:
    """``close_trick`` with the contract's table rows already looked up (``TRICK_RANK[row]``,
    ``VALUES[row]``), for the bots' playouts and endgame search, which close many tricks of
    one contract: the highest trump, else the highest card of the led suit, takes it."""
    led = cards[0] >> 3
    best_index, best = 0, rank[cards[0]]
    for i in (1, 2, 3):
        c = cards[i]
        if c >> 3 in (led, trump) and rank[c] > best:
            best_index, best = i, rank[c]
    abnat = values[cards[0]] + values[cards[1]] + values[cards[2]] + values[cards[3]]
    if index == TRICKS_PER_ROUND - 1:
        abnat += LAST_TRICK_BONUS
    return (leader + best_index) & 3, abnat
