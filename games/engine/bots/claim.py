"""When a bot calls Sawa (rules-saudi.md S20-S22), and how it doubles under S10.

A bot sees only its own hand and the table, so it may claim only what it can prove against
every placement of the cards it cannot see: here, that every card it holds is a master it
can cash itself. Then the order "plain masters first, trumps last" wins every trick whoever
holds the rest: no outstanding card of a led suit beats it, and in Hokum nobody else holds a
trump to cut it (the lock, S10/R23, restricts only leads, and leading the trumps last is
always allowed: an all-trump hand leads any trump). The test is sufficient, not necessary;
the engine's judgement (S22, all hands known) would accept more claims, which the bot never
risks: a false Sawa is a khasara (S24).
"""

from __future__ import annotations

from ..cards import PLAIN_STRENGTH, SUIT_MASK, TRUMP_STRENGTH, cards_of
from ..moves import Double, Move, Sawa
from ..observation import Observation
from .knowledge import FULL, played_mask


def sure_sawa(obs: Observation) -> bool:
    """True only if ``obs.seat`` can take every remaining trick alone, whatever the unseen
    hands hold."""
    if Sawa() not in obs.legal_moves or obs.contract is None:
        return False
    own = sum(1 << card for card in obs.hand)
    outside = FULL & ~own & ~played_mask(obs)  # every card someone else may hold
    trump = obs.contract.trump
    if trump is not None and outside & SUIT_MASK[trump]:
        return False  # someone may cut a plain master, or hold a higher trump
    for card in cards_of(own):
        suit = card >> 3
        strength = TRUMP_STRENGTH if suit == trump else PLAIN_STRENGTH
        if any(
            strength[other & 7] > strength[card & 7]
            for other in cards_of(outside & SUIT_MASK[suit])
        ):
            return False
    return True


def prefer_closed(move: Move, obs: Observation) -> Move:
    """S10: raise closed when the choice is offered (Kammelna doublers close 94% of doubled
    Hokum rounds: the lock stops the declarer drawing trumps)."""
    if isinstance(move, Double) and move.locked is False:
        closed = Double(move.call, locked=True)
        if closed in obs.legal_moves:
            return closed
    return move
