"""What a seat can infer for certain from its observation: who played what, who is void in
which suit, and which hidden cards are pinned to a seat.

Only certain facts are used, so every real deal is consistent with the result:
* a seat that did not follow the led suit holds none of it (R26);
* in a locked Hokum (R23) a seat that led a trump held nothing but trumps at that moment;
* the card recipient holds the face-up card until it is played (R9);
* a declared project's cards are in the declarer's hand until played, once public (R30);
* under compulsory trumping (``saudi``, rules-saudi.md S5-S7), a seat void in the led suit that
  did not trump while an opponent was winning held no trump, and one that did not beat the
  winning trump when it had to held none above it (``compulsory_exclusions``).

Every level that deals hidden cards reads the same ``infer(obs, ruleset)``, so what the rules
prove is never left out of one level's deals.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import SUIT_MASK, Card
from ..observation import Observation
from ..play import _TRUMPS_ABOVE, trick_winner
from ..rulesets import Ruleset

FULL = 0xFFFFFFFF


@dataclass(frozen=True, slots=True)
class Knowledge:
    seat: int
    own: int  # the seat's own hand
    played: int  # every card played this round, the current trick included
    played_by: tuple[int, int, int, int]  # cards each seat has played this round
    known: tuple[int, int, int, int]  # hidden cards pinned to each other seat (0 for own seat)
    excluded: tuple[int, int, int, int]  # cards each seat certainly does not hold now
    counts: tuple[int, int, int, int]  # cards in each hand now

    @property
    def unknown(self) -> int:
        """Cards in other hands that are not pinned to a seat."""
        pinned = self.known[0] | self.known[1] | self.known[2] | self.known[3]
        return FULL & ~self.own & ~self.played & ~pinned


def _plays(obs: Observation) -> list[tuple[int, tuple[Card, ...]]]:
    """(leader, cards) for every trick seen, the current one last."""
    out = [(t.leader, t.cards) for t in obs.tricks]
    if obs.trick and obs.leader is not None:
        out.append((obs.leader, obs.trick))
    return out


def played_mask(obs: Observation) -> int:
    """Every card played this round, the current trick included."""
    mask = 0
    for _, cards in _plays(obs):
        for card in cards:
            mask |= 1 << card
    return mask


def compulsory_exclusions(obs: Observation, ruleset: Ruleset) -> tuple[int, int, int, int]:
    """Cards each seat certainly does not hold now because of compulsory trumping (S5-S7):
    none outside a ruleset that has it, or in Sun."""
    contract = obs.contract
    if not ruleset.compulsory_trumping or contract is None or contract.trump is None:
        return (0, 0, 0, 0)
    trump = contract.trump
    out = [0, 0, 0, 0]
    for leader, cards in _plays(obs):
        led = cards[0] >> 3
        for i in range(1, len(cards)):
            player = (leader + i) % 4
            card = cards[i]
            before = cards[:i]
            best = trick_winner(before, trump)
            partner_winning = best == i - 2
            winning = before[best]
            if card >> 3 == led:
                if led == trump and not partner_winning and not 1 << card & _TRUMPS_ABOVE[winning]:
                    # S5(b): it had to beat the winning trump if able.
                    out[player] |= _TRUMPS_ABOVE[winning]
                continue
            # Void in the led suit (``infer`` records that much under every ruleset).
            if partner_winning:
                continue  # S7: free
            if card >> 3 != trump:
                out[player] |= SUIT_MASK[trump]  # S6: it had to trump if it held one
            elif winning >> 3 == trump and not (1 << card) & _TRUMPS_ABOVE[winning]:
                out[player] |= _TRUMPS_ABOVE[winning]  # S6: it had to overtrump if able
    return (out[0], out[1], out[2], out[3])


def infer(obs: Observation, ruleset: Ruleset) -> Knowledge:
    """The certain facts of ``obs`` under ``ruleset`` (whose play rules decide what a card
    proves)."""
    if obs.seat is None:
        raise ValueError("a bot needs a seated observation")
    seat = obs.seat
    own = 0
    for card in obs.hand:
        own |= 1 << card
    trump = obs.contract.trump if obs.contract else None
    played_by = [0, 0, 0, 0]
    void = [0, 0, 0, 0]  # suit masks
    for leader, cards in _plays(obs):
        led = cards[0] >> 3
        for i, card in enumerate(cards):
            player = (leader + i) % 4
            played_by[player] |= 1 << card
            if card >> 3 != led:
                void[player] |= SUIT_MASK[led]
        if obs.locked and trump is not None and led == trump:
            # R23: leading a trump in a locked round proves an all-trump hand.
            void[leader] |= FULL & ~SUIT_MASK[trump]
    played = played_by[0] | played_by[1] | played_by[2] | played_by[3]

    known = [0, 0, 0, 0]
    contract = obs.contract
    if contract is not None and contract.recipient != seat:
        face = 1 << contract.face_up
        if not played & face:
            known[contract.recipient] |= face
    for declaration in obs.declarations:
        if declaration.seat == seat or declaration.projects is None:
            continue
        for project in declaration.projects:
            for card in project.cards:
                if not played >> card & 1:
                    known[declaration.seat] |= 1 << card
    known[seat] = 0

    proven = compulsory_exclusions(obs, ruleset)
    excluded = [0, 0, 0, 0]
    for s in range(4):
        if s == seat:
            excluded[s] = FULL & ~own
            continue
        pinned_elsewhere = 0
        for t in range(4):
            if t != s:
                pinned_elsewhere |= known[t]
        excluded[s] = (void[s] | proven[s] | own | played | pinned_elsewhere) & ~known[s]
    return Knowledge(
        seat=seat,
        own=own,
        played=played,
        played_by=(played_by[0], played_by[1], played_by[2], played_by[3]),
        known=(known[0], known[1], known[2], known[3]),
        excluded=(excluded[0], excluded[1], excluded[2], excluded[3]),
        counts=obs.card_counts,
    )
