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

from .cards import PLAIN_STRENGTH, SUIT_MASK, TRUMP_STRENGTH, Card, Suit, cards_of
from .play import legal_play_mask, trick_abnat, trick_winner

SAWA_MAX_CARDS = 4  # S20: tricks 5-8


def _strongest_first(strength: tuple[int, ...]) -> tuple[tuple[Card, ...], ...]:
    # Per suit, its 8 cards from the strongest down.
    return tuple(
        tuple(suit * 8 + r for r in sorted(range(8), key=lambda r: -strength[r]))
        for suit in range(4)
    )


_PLAIN_DOWN = _strongest_first(PLAIN_STRENGTH)
_TRUMP_DOWN = _strongest_first(TRUMP_STRENGTH)


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
    # Trumps first: the likeliest to take a trick (within a suit the walk goes top down).
    suit_order = (trump, *(x for x in range(4) if x != trump)) if trump is not None else range(4)

    def legal(h: list[int], seat: int, trick: tuple[Card, ...]) -> list[Card]:
        """The legal cards of ``seat``, one of each run of equivalent ones, trumps first and
        each suit from the top.

        Only who takes each trick matters here, never its abnat, so two cards of one suit in
        one hand with no live card (held, or in the current trick) between them in trick
        order are interchangeable: whatever one does, the other does too (legality included,
        since it depends only on suit and on beating the winner). Trying the strong cards
        first finds the team's winning card, and the opponents' breaking card, soonest."""
        mask = legal_play_mask(h[seat], trick, trump, locked, compulsory)
        if not mask & (mask - 1):
            return [mask.bit_length() - 1]  # a single card
        live = h[0] | h[1] | h[2] | h[3]
        for card in trick:
            live |= 1 << card
        keep: list[Card] = []
        for suit in suit_order:
            if not mask & SUIT_MASK[suit]:
                continue
            # Walk the suit's live cards from the top: a card of ours right below another
            # of ours (no live card between) repeats it.
            below_ours = False
            for card in _TRUMP_DOWN[suit] if suit == trump else _PLAIN_DOWN[suit]:
                if live >> card & 1:
                    ours = bool(mask >> card & 1)
                    if ours and not below_ours:
                        keep.append(card)
                    below_ours = ours
        return keep

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
