"""What a seat can infer for certain from its observation: who played what, who is void in
which suit, and which hidden cards are pinned to a seat.

Only certain facts are used, so every real deal is consistent with the result:
* a seat that did not follow the led suit holds none of it (R26);
* in a locked Hokum (R23) a seat that led a trump held nothing but trumps at that moment;
* the card recipient holds the face-up card until it is played (R9);
* a declared project's cards are in the declarer's hand until played, once public (R30).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import SUIT_MASK, Card
from ..observation import Observation

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


def infer(obs: Observation) -> Knowledge:
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

    excluded = [0, 0, 0, 0]
    for s in range(4):
        if s == seat:
            excluded[s] = FULL & ~own
            continue
        pinned_elsewhere = 0
        for t in range(4):
            if t != s:
                pinned_elsewhere |= known[t]
        excluded[s] = (void[s] | own | played | pinned_elsewhere) & ~known[s]
    return Knowledge(
        seat=seat,
        own=own,
        played=played,
        played_by=(played_by[0], played_by[1], played_by[2], played_by[3]),
        known=(known[0], known[1], known[2], known[3]),
        excluded=(excluded[0], excluded[1], excluded[2], excluded[3]),
        counts=obs.card_counts,
    )
