"""Exact play of the last tricks of a deal whose hands are all known (the bots' endgame).

Alpha-beta over every legal card, valued by the round-score margin the engine's scoring gives
(R33-R43, and Sawa-free), for one team. What makes it fast enough to run on every deal of a
search, a few hundred times per decision:

* tables: trick ranks and card values per trump suit (``play.TRICK_RANK``, ``play.VALUES``),
  legal cards from masks (``play.legal_play_mask``);
* a transposition table at trick boundaries: the same hands, leader and score so far are
  reached by many play orders (e.g. two tricks won in either order);
* equivalent cards searched once: two cards of one suit and one hand with no live card
  between them in trick order and the same value play identically (which takes a trick and
  how many abnat it carries), so only the higher is tried;
* move order: the cards likeliest to decide a trick first (higher trick rank first), which is
  what makes alpha-beta cut early.
"""

from __future__ import annotations

from collections.abc import Callable

from ..cards import Card, Suit
from ..play import (
    NO_TRUMP,
    TRICK_RANK,
    TRICKS_PER_ROUND,
    VALUES,
    legal_play_mask,
    scored_trick,
)

# Transposition-table bounds.
_EXACT, _LOWER, _UPPER = 0, 1, 2


def _descending(rank: tuple[int, ...]) -> tuple[tuple[Card, ...], ...]:
    """Per suit, its cards from the highest trick rank down."""
    return tuple(tuple(sorted(range(s * 8, s * 8 + 8), key=lambda c: -rank[c])) for s in range(4))


_DOWN = tuple(_descending(TRICK_RANK[row]) for row in range(5))

# The cards ``Endgame._runs`` keeps, by (trump row, suit, held byte, live byte): a few thousand
# combinations ever occur, each worked out once per process.
_RUNS: dict[int, tuple[Card, ...]] = {}


class Endgame:
    """Exact values of positions of one deal, for ``team``; ``margin(abnat, counts)`` scores a
    finished round (round-score margin for ``team``)."""

    def __init__(
        self,
        trump: Suit | None,
        locked: bool,
        compulsory: bool,
        team: int,
        margin: Callable[[tuple[int, int], tuple[int, int]], float],
    ) -> None:
        row = NO_TRUMP if trump is None else trump
        self.row = row
        self.trump = trump
        self.locked = locked
        self.compulsory = compulsory and trump is not None
        self.team = team
        self.margin = margin
        self.rank = TRICK_RANK[row]
        self.values = VALUES[row]
        self.down = _DOWN[row]
        # Suits in the order moves are tried: trumps first (they decide the most tricks).
        self.suits = (
            (trump, *(s for s in range(4) if s != trump))
            if trump is not None
            else (
                0,
                1,
                2,
                3,
            )
        )
        self.table: dict[tuple[int, int, int, int, int], tuple[float, int]] = {}

    def value(
        self,
        hands: list[int],
        leader: int,
        trick: list[Card],
        done: int,
        abnat: tuple[int, int],
        counts: tuple[int, int],
    ) -> float:
        """The exact margin of the position: ``hands`` (masks, changed and restored in place),
        ``trick`` the cards of the current trick from ``leader``, ``done`` tricks complete."""
        return self._search(hands, leader, trick, done, abnat, counts, -1e9, 1e9)

    def _moves(self, hands: list[int], seat: int, trick: list[Card]) -> list[Card]:
        """The legal cards of ``seat``, one of each equivalent run, in search order."""
        hand = hands[seat]
        mask = legal_play_mask(hand, tuple(trick), self.trump, self.locked, self.compulsory)
        if not mask & (mask - 1):
            return [mask.bit_length() - 1]
        live = hands[0] | hands[1] | hands[2] | hands[3]
        for card in trick:  # a card on the table can lie between two of ours
            live |= 1 << card
        out: list[Card] = []
        row = self.row
        for suit in self.suits:
            shift = suit * 8
            held = mask >> shift & 0xFF
            if held:
                key = (row * 4 + suit) << 16 | held << 8 | (live >> shift & 0xFF)
                cards = _RUNS.get(key)
                if cards is None:
                    cards = _RUNS[key] = self._runs(suit, held, live >> shift & 0xFF)
                out += cards
        return out

    def _runs(self, suit: int, held: int, live: int) -> tuple[Card, ...]:
        """The cards of ``held`` (a suit's byte) to try, highest first: of each run of held
        cards with no other live card between them and one value, the highest only."""
        values = self.values
        out: list[Card] = []
        previous = -1  # our card just above, with no live card between
        for card in self.down[suit]:
            bit = 1 << (card & 7)
            if not live & bit:
                continue
            if held & bit:
                if previous < 0 or values[previous] != values[card]:
                    out.append(card)
                previous = card
            else:
                previous = -1
        return tuple(out)

    def _search(
        self,
        hands: list[int],
        leader: int,
        trick: list[Card],
        done: int,
        abnat: tuple[int, int],
        counts: tuple[int, int],
        alpha: float,
        beta: float,
    ) -> float:
        if done == TRICKS_PER_ROUND:
            return self.margin(abnat, counts)
        key = None
        if not trick:
            key = (
                hands[0] | hands[1] << 32 | hands[2] << 64 | hands[3] << 96,
                leader,
                abnat[0],
                abnat[1],
                (counts[0] == 0) | (counts[1] == 0) << 1,
            )
            hit = self.table.get(key)
            if hit is not None:
                stored, flag = hit
                if flag == _EXACT:
                    return stored
                if flag == _LOWER and stored >= beta:
                    return stored
                if flag == _UPPER and stored <= alpha:
                    return stored
        seat = (leader + len(trick)) & 3
        maximizing = seat & 1 == self.team
        best = -1e9 if maximizing else 1e9
        original_alpha, original_beta = alpha, beta
        hand = hands[seat]
        for card in self._moves(hands, seat, trick):
            hands[seat] = hand & ~(1 << card)
            trick.append(card)
            if len(trick) == 4:
                winner, points = scored_trick(
                    trick, leader, done, self.trump, self.rank, self.values
                )
                if winner & 1:
                    after = (abnat[0], abnat[1] + points), (counts[0], counts[1] + 1)
                else:
                    after = (abnat[0] + points, abnat[1]), (counts[0] + 1, counts[1])
                value = self._search(hands, winner, [], done + 1, after[0], after[1], alpha, beta)
            else:
                value = self._search(hands, leader, trick, done, abnat, counts, alpha, beta)
            trick.pop()
            if maximizing:
                if value > best:
                    best = value
                    if value > alpha:
                        alpha = value
            else:
                if value < best:
                    best = value
                    if value < beta:
                        beta = value
            if alpha >= beta:
                break
        hands[seat] = hand
        if key is not None:
            if best <= original_alpha:
                self.table[key] = (best, _UPPER)
            elif best >= original_beta:
                self.table[key] = (best, _LOWER)
            else:
                self.table[key] = (best, _EXACT)
        return best
