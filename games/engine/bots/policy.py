"""The rule-of-thumb card play shared by the easy bot and the normal bot's rollouts.

It works on raw masks so a rollout can call it tens of thousands of times per decision. It
sees only what a seat legitimately knows: its own hand, the cards already played and the
trick on the table (the caller must not pass anything else).
"""

from __future__ import annotations

from ..cards import (
    PLAIN_STRENGTH,
    PLAIN_VALUE,
    SUIT_MASK,
    TRUMP_STRENGTH,
    TRUMP_VALUE,
    Card,
    Suit,
    cards_of,
)
from ..play import legal_play_mask, trick_winner

# A plain trick must be worth at least this many abnat before the bot spends a trump on it
# (R5: a lone 10 or Ace is worth it, a trick of Queens and Jacks is not).
RUFF_THRESHOLD = 10

# Cards of each suit, strongest first, under the plain and the trump order (R4).
_PLAIN_ORDER = tuple(
    tuple(sorted(range(s * 8, s * 8 + 8), key=lambda c: -PLAIN_STRENGTH[c & 7])) for s in range(4)
)
_TRUMP_ORDER = tuple(
    tuple(sorted(range(s * 8, s * 8 + 8), key=lambda c: -TRUMP_STRENGTH[c & 7])) for s in range(4)
)


def value(card: Card, trump: Suit | None) -> int:
    return TRUMP_VALUE[card & 7] if card >> 3 == trump else PLAIN_VALUE[card & 7]


def strength(card: Card, trump: Suit | None) -> int:
    return TRUMP_STRENGTH[card & 7] if card >> 3 == trump else PLAIN_STRENGTH[card & 7]


def _beat_key(card: Card, led: Suit, trump: Suit | None) -> int:
    """R27 ranking inside one trick: trumps above the led suit, other suits never win."""
    suit = card >> 3
    if suit == trump:
        return 8 + TRUMP_STRENGTH[card & 7]
    if suit == led:
        return PLAIN_STRENGTH[card & 7]
    return -1


def is_boss(card: Card, others: int, trump: Suit | None) -> bool:
    """No card in ``others`` (cards another seat may still hold) beats ``card`` in its suit."""
    suit = card >> 3
    order = _TRUMP_ORDER[suit] if suit == trump else _PLAIN_ORDER[suit]
    for c in order:
        if c == card:
            return True
        if others >> c & 1:
            return False
    return True


bits = cards_of  # the cards of a mask, lowest first


# Per trump row (0-3, or NO_TRUMP for Sun), per card: the sort keys the policy compares, as
# single ints ordered exactly as the tuples they stand for, so min/max take the table's
# ``__getitem__`` as their key (no Python call per card): a rollout calls this policy for
# every card it plays.
def _row_tables(trump: Suit | None) -> tuple[tuple[int, ...], ...]:
    lowest = []  # (is trump, value, strength): the cheapest card to give away
    smear = []  # (value, -strength): the card to put on the partner's trick
    boss_lead = []  # (plain value, plain strength): the plain winner to cash first
    top_trump = []  # trump strength
    beaters = []  # cards of the same suit that beat it
    for c in range(32):
        v, st = value(c, trump), strength(c, trump)
        lowest.append((c >> 3 == trump) * 1000 + v * 10 + st)
        smear.append(v * 10 + (7 - st))
        boss_lead.append(PLAIN_VALUE[c & 7] * 10 + PLAIN_STRENGTH[c & 7])
        top_trump.append(TRUMP_STRENGTH[c & 7])
        order = _TRUMP_ORDER[c >> 3] if c >> 3 == trump else _PLAIN_ORDER[c >> 3]
        beaters.append(sum(1 << x for x in order[: order.index(c)]))
    return tuple(lowest), tuple(smear), tuple(boss_lead), tuple(top_trump), tuple(beaters)


_TABLES = tuple(_row_tables(t) for t in (0, 1, 2, 3, None))
# _beat_key per trump row and led suit.
_BEAT = tuple(
    tuple(tuple(_beat_key(c, led, trump) for c in range(32)) for led in range(4))
    for trump in (0, 1, 2, 3, None)
)
_VALUES = tuple(tuple(value(c, t) for c in range(32)) for t in (0, 1, 2, 3, None))


def heuristic_card(
    hand: int,
    trick: tuple[Card, ...],
    seat: int,
    trump: Suit | None,
    locked: bool,
    played: int,
    bidder_team: int,
    *,
    compulsory: bool = False,
    legal: int | None = None,
) -> Card:
    """Choose a card for ``seat``. ``played`` holds every card already played this round,
    the current trick's included. The legal cards are ``legal`` when the caller knows them
    (a bot's observation lists them), else computed (``compulsory``: Saudi trumping, S5-S7)."""
    if legal is None:
        legal = legal_play_mask(hand, trick, trump, locked, compulsory)
    if not legal & (legal - 1):  # a single legal card
        return legal.bit_length() - 1
    # Cards that some other seat may still hold.
    others = 0xFFFFFFFF & ~hand & ~played
    cards = bits(legal)
    row = 4 if trump is None else trump
    if not trick:
        return _lead(cards, others, trump, seat % 2 == bidder_team, row)
    return _follow(cards, trick, seat, trump, others, row)


def _lead(cards: list[Card], others: int, trump: Suit | None, bidding_side: bool, row: int) -> Card:
    lowest, _, boss_lead, top_trump, beaters = _TABLES[row]
    if trump is not None and bidding_side:
        # Draw the opponents' trumps while holding the top trump: protects our side winners.
        trumps = [c for c in cards if c >> 3 == trump]
        if trumps and others & SUIT_MASK[trump]:
            top = max(trumps, key=top_trump.__getitem__)
            if not others & beaters[top]:
                return top
    # Cash a plain card nobody can beat in its suit, the most valuable first.
    bosses = [c for c in cards if c >> 3 != trump and not others & beaters[c]]
    if bosses:
        return max(bosses, key=boss_lead.__getitem__)
    # Otherwise give the lead away cheaply; keep trumps and valuable cards.
    return min(cards, key=lowest.__getitem__)


def _follow(
    cards: list[Card],
    trick: tuple[Card, ...],
    seat: int,
    trump: Suit | None,
    others: int,
    row: int,
) -> Card:
    lowest, smear, _, _, beaters = _TABLES[row]
    led = trick[0] >> 3
    beat = _BEAT[row][led]
    position = len(trick)
    leader = (seat - position) % 4
    win_index = trick_winner(trick, trump)
    winning_card = trick[win_index]
    partner_winning = (leader + win_index) % 4 == (seat + 2) % 4
    last = position == 3
    best = beat[winning_card]

    if partner_winning:
        safe = last or (
            not others & beaters[winning_card]
            and (trump is None or winning_card >> 3 == trump or not others & SUIT_MASK[trump])
        )
        if safe:
            # Smear points onto the partner's trick, but keep trumps and our own winners.
            pool = [c for c in cards if c >> 3 != trump] or cards
            keep = [c for c in pool if others & beaters[c]] or pool
            return max(keep, key=smear.__getitem__)
        return min(cards, key=lowest.__getitem__)

    values = _VALUES[row]
    trick_points = sum([values[c] for c in trick])
    winners = [c for c in cards if beat[c] > best]
    if winners:
        following = [c for c in winners if c >> 3 == led]
        if following:
            if last:
                # Nobody plays after us: take with the most valuable winning card.
                return max(following, key=smear.__getitem__)
            bosses = [c for c in following if not others & beaters[c]]
            if bosses:
                return min(bosses, key=beat.__getitem__)
            cheap = min(following, key=beat.__getitem__)
            if values[cheap] <= 4 or led == trump:
                return cheap
        else:
            # Void in the led suit: ruff only a trick worth it, with the smallest trump that wins.
            if trick_points >= RUFF_THRESHOLD or (last and trick_points > 0):
                return min(winners, key=beat.__getitem__)
    return min(cards, key=lowest.__getitem__)
