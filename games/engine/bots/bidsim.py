"""Simulated bidding for the normal bot: the value of each contract it could make.

For a candidate contract the bot deals the 26 cards it cannot see at random (the other three
initial hands, then the completion deal of R9 with the face-up card to the recipient),
declares everyone's best projects (R30), plays the round out with the rule-of-thumb policy
and scores it with the engine (R33-R41). The mean round-score margin for its team is the
contract's value. Only the seat's own 5 cards and the face-up card are used; the calls made so
far are not read into the other hands (a known simplification).
"""

from __future__ import annotations

import random

from ..bidding import Contract, Mode
from ..cards import Card
from ..moves import Call
from ..projects import baloot_holder, everyones_best_declarations
from ..rules import playing_state
from ..rulesets import Ruleset
from .policy import bits
from .simulate import Playout


def _deal(hand: int, face_up: Card, seat: int, recipient: int, rng: random.Random) -> list[int]:
    hidden = bits(0xFFFFFFFF & ~hand & ~(1 << face_up))
    rng.shuffle(hidden)
    hands = [0, 0, 0, 0]
    hands[seat] = hand
    position = 0
    for s in range(4):
        extra = 3 if s != recipient else 2
        count = extra if s == seat else 5 + extra
        for card in hidden[position : position + count]:
            hands[s] |= 1 << card
        position += count
    hands[recipient] |= 1 << face_up
    return hands


def contract_value(
    *,
    hand: int,
    face_up: Card,
    seat: int,
    dealer: int,
    scores: tuple[int, int],
    kind: Call,
    trump: int | None,
    declarer: int,
    bidding_round: int,
    samples: int,
    rng: random.Random,
    ruleset: Ruleset,
) -> float:
    """Mean margin for ``seat``'s team if ``declarer`` plays this contract (multiplier 1)."""
    mode = Mode.SUN if trump is None else Mode.HOKUM
    recipient = (declarer + 2) % 4 if kind is Call.ASHKAL else declarer
    contract = Contract(
        kind=kind,
        mode=mode,
        trump=trump,
        declarer=declarer,
        recipient=recipient,
        bidding_round=bidding_round,
        face_up=face_up,
    )
    total = 0.0
    for _ in range(samples):
        hands = _deal(hand, face_up, seat, recipient, rng)
        state = playing_state(  # undoubled, the declarer leading (R25)
            ruleset=ruleset,
            contract=contract,
            hands=(hands[0], hands[1], hands[2], hands[3]),
            dealer=dealer,
            scores=scores,
            declarations=everyones_best_declarations(hands, declarer, mode),
            baloot_seat=baloot_holder(hands, trump),
        )
        total += Playout(state, seat % 2).value()
    return total / samples
