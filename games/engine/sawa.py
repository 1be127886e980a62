"""Sawa (rules-saudi.md S20-S26): when the claim is open, and its exact adjudication.

S22: the claim holds iff the claimant's team wins every remaining trick against every legal
defence, the claimant leading now, the claimant and the partner choosing their cards knowing
all hands, the opponents choosing any legal cards, every play checked as in the round (S5-S7
and the lock). With at most 4 cards a hand the game tree is small enough to search to the
end: an AND-OR search (the team's cards are "some card works", the opponents' "every card
fails to stop it"), cut as soon as an opponent takes a trick, with the positions between
tricks memoized (different play orders often reach the same hands).
"""

from __future__ import annotations

from .cards import PLAIN_STRENGTH, TRUMP_STRENGTH, Card, Suit, cards_of
from .play import legal_play_mask, trick_abnat, trick_winner

SAWA_MAX_CARDS = 4  # S20: tricks 5-8


def _by_strength(strength: tuple[int, ...]) -> tuple[tuple[Card, ...], ...]:
    # Per card, the other cards of its suit that beat it, weakest first.
    return tuple(
        tuple(
            sorted(
                (c & ~7 | r for r in range(8) if strength[r] > strength[c & 7]),
                key=lambda x: strength[x & 7],
            )
        )
        for c in range(32)
    )


_ABOVE_PLAIN = _by_strength(PLAIN_STRENGTH)
_ABOVE_TRUMP = _by_strength(TRUMP_STRENGTH)


def sawa_open(*, leading: bool, cards_in_hand: int) -> bool:
    """S20: the seat to act may call Sawa only to lead (no card of the trick down) with at
    most 4 cards in hand."""
    return leading and cards_in_hand <= SAWA_MAX_CARDS


def sawa_holds(
    hands: tuple[int, int, int, int],
    claimant: int,
    trump: Suit | None,
    locked: bool,
    compulsory: bool,
) -> bool:
    """S22: whether ``claimant``'s team, with ``claimant`` to lead, takes every remaining
    trick of ``hands`` (masks) against every legal defence."""
    team = claimant % 2
    memo: dict[tuple[int, int], bool] = {}

    def legal(h: list[int], seat: int, trick: tuple[Card, ...]) -> list[Card]:
        """The legal cards of ``seat``, one of each run of equivalent ones, strongest first.

        Only who takes each trick matters here, never its abnat, so two cards of one suit in
        one hand with no live card (held, or in the current trick) between them in trick
        order are interchangeable: whatever one does, the other does too (legality included,
        since it depends only on suit and on beating the winner). Trying the strongest first
        finds the team's winning card, and the opponents' breaking card, soonest."""
        mask = legal_play_mask(h[seat], trick, trump, locked, compulsory)
        live = h[0] | h[1] | h[2] | h[3]
        for card in trick:
            live |= 1 << card
        keep: list[tuple[int, Card]] = []
        for card in cards_of(mask):
            trumped = card >> 3 == trump
            above = _ABOVE_TRUMP[card] if trumped else _ABOVE_PLAIN[card]
            # The next live card above it: if it is also ours to play, this one is redundant.
            nxt = next((c for c in above if live >> c & 1), None)
            if nxt is not None and mask >> nxt & 1:
                continue
            rank = (TRUMP_STRENGTH if trumped else PLAIN_STRENGTH)[card & 7]
            keep.append((8 + rank if trumped else rank, card))
        keep.sort(reverse=True)
        return [card for _, card in keep]

    def all_tricks(h: tuple[int, int, int, int], leader: int) -> bool:
        if not h[leader]:
            return True  # every trick taken
        key = (h[0] | h[1] << 32 | h[2] << 64 | h[3] << 96, leader)
        known = memo.get(key)
        if known is None:
            known = memo[key] = play(list(h), leader, ())
        return known

    def play(h: list[int], leader: int, trick: tuple[Card, ...]) -> bool:
        seat = (leader + len(trick)) % 4
        ours = seat % 2 == team
        hand = h[seat]
        for card in legal(h, seat, trick):
            h[seat] = hand & ~(1 << card)
            now = (*trick, card)
            if len(now) < 4:
                ok = play(h, leader, now)
            else:
                winner = (leader + trick_winner(now, trump)) % 4
                ok = winner % 2 == team and all_tricks((h[0], h[1], h[2], h[3]), winner)
            h[seat] = hand
            if ok and ours:
                return True  # the team has a card that keeps the claim
            if not ok and not ours:
                return False  # the opponents have a card that breaks it
        return not ours

    return all_tricks(hands, claimant)


def remaining_abnat(hands: tuple[int, int, int, int], trump: Suit | None) -> int:
    """S23: the abnat of every unplayed card (the last-trick 10 is added by the caller)."""
    return trick_abnat(cards_of(hands[0] | hands[1] | hands[2] | hands[3]), trump)
