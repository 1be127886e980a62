"""Simulated auctions for the hard bot: what each call is worth once the others have answered.

For each call it could make, the hard bot deals the cards it cannot see many times (the other
seats' dealt hands and the stock), weighs each deal by how well the calls made so far fit those
hands, lets every seat (itself included) finish the auction, deals the stock (R9), declares
everyone's best projects (R30) and plays the round out with the rule-of-thumb policy, scored by
the engine (R33-R43). A call's value is the mean round-score margin for its team. Passing is
valued the same way, so a pass that leaves the partner a good contract, an opponent a poor one
or the deal to a redeal (worth 0) is weighed for what it brings, instead of against a fixed
threshold.

The model of the table is the easy bot's rules of thumb (``easy.rule_bid``): simple, fast, and
close to how the other levels and people open. A deal in which a seat's earlier call is not the
model's call for its hand keeps ``UNLIKE_THE_MODEL`` of its weight (people and bots bid
differently, so no deal is ruled out by a call). The same deals serve every call, so their luck
cancels in the comparison.
"""

from __future__ import annotations

import random
import time

from ..bidding import REDEAL, Bidding, Contract, Stage, bid_apply, bid_legal, bidding_order
from ..bidding import bidding_start as start
from ..cards import Card
from ..moves import Bid, Call
from ..observation import Observation
from ..projects import baloot_holder, everyones_best_declarations
from ..rules import playing_state
from ..rulesets import Ruleset
from .easy import hand_mask, rule_bid
from .policy import bits
from .simulate import Playout
from .stopping import settled

UNLIKE_THE_MODEL = 0.35


def _round_two(bidding: Bidding) -> bool:
    return bidding.stage in (Stage.R2_OPEN, Stage.R2_RESPONSE, Stage.R2_CHOOSE)


def _model_call(bidding: Bidding, hand: int, face_up: Card, ruleset: Ruleset) -> Bid:
    legal = bid_legal(bidding, face_up >> 3, ruleset, face_up)
    return rule_bid(hand, face_up, legal, _round_two(bidding))


def _fits(call: Bid, model: Bid) -> bool:
    # The model never calls Ashkal: an Ashkal is its Sun (R15: a Sun for the caller's team).
    if call.call is Call.ASHKAL:
        return model.call is Call.SUN
    return call == model


def call_values(
    obs: Observation,
    calls: list[Bid],
    rng: random.Random,
    ruleset: Ruleset,
    *,
    samples: int | None,
    budget: float,
    min_samples: int = 12,
    stop_z: float = 3.0,
) -> list[float]:
    """The mean margin for ``obs.seat``'s team of each of ``calls``, over ``samples`` deals;
    or, with ``samples`` None, over as many as ``budget`` seconds allow (at least
    ``min_samples``), stopping early once the best call leads every other by ``stop_z``
    standard errors."""
    assert obs.seat is not None and obs.face_up is not None
    seat, face_up, dealer = obs.seat, obs.face_up, obs.dealer
    own = hand_mask(obs)
    # The auction so far: each call with the bidding state it was made in.
    bidding = start(dealer)
    history: list[tuple[int, Bid, Bidding]] = []
    for caller, bid in obs.calls:
        history.append((caller, bid, bidding))
        after = bid_apply(bidding, bid, face_up, ruleset)
        assert isinstance(after, Bidding)  # the auction is still open: it is our turn
        bidding = after
    unseen = bits(0xFFFFFFFF & ~own & ~(1 << face_up))
    others = [s for s in bidding_order(dealer) if s != seat]
    team = seat % 2
    values: list[list[float]] = [[] for _ in calls]
    weights: list[float] = []
    started = time.perf_counter()
    dealt = 0
    while True:
        if samples is not None:
            if dealt >= samples:
                break
        elif dealt >= min_samples:
            elapsed = time.perf_counter() - started
            if elapsed * (dealt + 1) / dealt > budget or settled(values, stop_z, weights):
                break
        dealt += 1
        rng.shuffle(unseen)
        hands = [0, 0, 0, 0]
        hands[seat] = own
        for i, other in enumerate(others):
            for card in unseen[5 * i : 5 * i + 5]:
                hands[other] |= 1 << card
        stock = unseen[15:]
        weight = 1.0
        for caller, bid, before in history:
            if caller == seat:
                continue
            if not _fits(bid, _model_call(before, hands[caller], face_up, ruleset)):
                weight *= UNLIKE_THE_MODEL
        for i, call in enumerate(calls):
            values[i].append(
                _play_on(bidding, call, hands, stock, face_up, dealer, obs.scores, team, ruleset)
            )
        weights.append(weight)
    total = sum(weights)
    return [sum(w * v for w, v in zip(weights, vs, strict=True)) / total for vs in values]


def _play_on(
    bidding: Bidding,
    call: Bid,
    dealt: list[int],
    stock: list[Card],
    face_up: Card,
    dealer: int,
    scores: tuple[int, int],
    team: int,
    ruleset: Ruleset,
) -> float:
    """Our ``call``, the rest of the auction by the model, then the round at x1."""
    state: Bidding | Contract | str = bid_apply(bidding, call, face_up, ruleset)
    while isinstance(state, Bidding):
        model = _model_call(state, dealt[state.queue[0]], face_up, ruleset)
        state = bid_apply(state, model, face_up, ruleset)
    if state == REDEAL:
        return 0.0  # R19: nothing scored
    assert isinstance(state, Contract)
    return _round_value(state, dealt, stock, face_up, dealer, scores, team, ruleset)


def _round_value(
    contract: Contract,
    dealt: list[int],
    stock: list[Card],
    face_up: Card,
    dealer: int,
    scores: tuple[int, int],
    team: int,
    ruleset: Ruleset,
) -> float:
    # R9: the stock in bidding order, 3 to each seat and 2 to the recipient, who also takes
    # the face-up card.
    hands = list(dealt)
    position = 0
    for s in bidding_order(dealer):
        count = 2 if s == contract.recipient else 3
        for card in stock[position : position + count]:
            hands[s] |= 1 << card
        position += count
    hands[contract.recipient] |= 1 << face_up
    state = playing_state(
        ruleset=ruleset,
        contract=contract,
        hands=(hands[0], hands[1], hands[2], hands[3]),
        dealer=dealer,
        scores=scores,
        declarations=everyones_best_declarations(hands, contract.declarer, contract.mode),
        baloot_seat=baloot_holder(hands, contract.trump),
    )
    return Playout(state, team).value()
