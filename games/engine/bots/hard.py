"""The hard bot: search over the deals the table's actions make likely, on a time budget.

Card play is Perfect Information Monte Carlo, like the normal bot's, with three differences:

* **Inference.** Deals are drawn within the certain facts (``knowledge.infer``, and for
  ``saudi`` what compulsory trumping proves, ``inference.saudi_exclusions``), then weighed by
  what the other seats did (``inference.Beliefs``: the bidder's trumps, a doubler's strength,
  declared project kinds, cards a sensible player would not have played with that hand). A
  pool of deals is drawn and the likely ones kept, in proportion to their weight.
* **Exact endgame.** Each deal is played out with the rule-of-thumb policy, and the last four
  tricks (16 cards) are solved exactly (alpha-beta, every hand known in the deal).
* **A budget, not a count.** Deals are added in batches until the budget is spent or the best
  card leads every other by ``stop_z`` standard errors of the paired difference (the same deals
  for every card, so the luck of the deal cancels); most decisions stop well before the budget.

Bidding and doubling are decided by simulation too: each contract it could call (bidding) or
each rung it could climb (doubling) is valued by playing many deals of the unseen cards, again
weighed by what the other seats' calls suggest, and scored exactly by the engine.

Like every bot it sees one seat's observation and nothing else, and all its randomness comes
from the ``random.Random`` it is handed (with ``samples`` set it is deterministic).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from ..bidding import Contract, Ladder, Mode
from ..cards import Card
from ..moves import Bid, Call, Declare, Double, DoubleCall, Move, Play
from ..observation import Observation
from ..projects import baloot_holder, best_declaration
from ..rulesets import GAMERULES, Ruleset
from ..state import GameState, Phase, first_leader, playing_state
from . import easy
from .bidsim import _deal
from .determinize import public_state, sample_hands, with_hands
from .inference import Beliefs, beliefs_of, saudi_exclusions
from .knowledge import Knowledge, infer
from .simulate import Playout


@dataclass(frozen=True, slots=True)
class HardConfig:
    # Wall-clock budget per decision, in seconds (ignored when ``samples`` is set).
    budget: float = 1.0
    # A fixed number of deals per card decision: deterministic given the rng (tests, evals).
    samples: int | None = None
    min_samples: int = 16
    max_samples: int = 3000
    batch: int = 8
    # Deals drawn per deal kept: the pool the likely deals are chosen from.
    pool: int = 3
    # Stop once the best card leads every other by this many standard errors.
    stop_z: float = 3.0
    # Cards left in all hands at which the play-out turns into an exact search.
    endgame_cards: int = 16
    # Deals per contract option when bidding, and per option when doubling.
    bid_samples: int = 64
    double_samples: int = 64
    # A raise must gain this much (mean round-score margin) over staying put.
    double_margin: float = 1.5
    # Gahwa (the round decides the match) only with at least this chance of taking the round.
    gahwa_chance: float = 0.85


DEFAULT_CONFIG = HardConfig()

# A contract is bid only if its simulated margin beats passing; more so over the partner's
# standing bid (taking it over risks our team's contract for a small gain).
PASS_VALUE = 2.0
PASS_VALUE_PARTNER_BID = 8.0


def choose(
    obs: Observation,
    rng: random.Random,
    config: HardConfig = DEFAULT_CONFIG,
    ruleset: Ruleset = GAMERULES,
) -> Move:
    if obs.projects_suggested:
        return Declare(obs.projects_suggested)  # R30: declaring never costs points
    if obs.phase is Phase.BIDDING:
        return choose_bid(obs, rng, config, ruleset)
    if obs.phase is Phase.DOUBLING:
        return choose_double(obs, rng, config, ruleset)
    return choose_play(obs, rng, config, ruleset)


# --- Deals --------------------------------------------------------------------------------


class _Deals:
    """Draws deals of the hidden cards for one observation, weighed by the table's actions."""

    def __init__(self, obs: Observation, ruleset: Ruleset, config: HardConfig) -> None:
        knowledge = infer(obs)
        extra = saudi_exclusions(obs, ruleset)
        if any(extra):
            knowledge = _with_exclusions(knowledge, extra)
        self.knowledge = knowledge
        self.beliefs: Beliefs = beliefs_of(obs, ruleset)
        self.config = config

    def draw(self, rng: random.Random, count: int) -> list[tuple[int, int, int, int]]:
        """``count`` deals, chosen from a pool in proportion to their weights."""
        knowledge, beliefs = self.knowledge, self.beliefs
        played_by = knowledge.played_by
        pool: list[tuple[int, int, int, int]] = []
        weights: list[float] = []
        for _ in range(count * self.config.pool):
            hands = sample_hands(knowledge, rng)
            holdings = (
                hands[0] | played_by[0],
                hands[1] | played_by[1],
                hands[2] | played_by[2],
                hands[3] | played_by[3],
            )
            pool.append(hands)
            weights.append(beliefs.weight(holdings))
        total = sum(weights)
        if total <= 0:
            return pool[:count]  # nothing fits what was said: every deal alike
        # Systematic resampling: one random offset, evenly spaced picks.
        step = total / count
        point = rng.random() * step
        chosen: list[tuple[int, int, int, int]] = []
        cumulative = 0.0
        index = -1
        for _ in range(count):
            while cumulative <= point and index + 1 < len(pool):
                index += 1
                cumulative += weights[index]
            chosen.append(pool[index])
            point += step
        return chosen


def _with_exclusions(knowledge: Knowledge, extra: tuple[int, int, int, int]) -> Knowledge:
    excluded = tuple(knowledge.excluded[s] | (extra[s] & ~knowledge.known[s]) for s in range(4))
    return Knowledge(
        seat=knowledge.seat,
        own=knowledge.own,
        played=knowledge.played,
        played_by=knowledge.played_by,
        known=knowledge.known,
        excluded=(excluded[0], excluded[1], excluded[2], excluded[3]),
        counts=knowledge.counts,
    )


class _Clock:
    def __init__(self, config: HardConfig) -> None:
        self.config = config
        self.start = time.perf_counter()

    def more(self, done: int, per_batch: float) -> bool:
        """Whether another batch fits: by count with ``samples``, else by the budget."""
        config = self.config
        if config.samples is not None:
            return done < config.samples
        if done >= config.max_samples:
            return False
        elapsed = time.perf_counter() - self.start
        return done < config.min_samples or elapsed + per_batch <= config.budget


# --- Card play ----------------------------------------------------------------------------


def choose_play(obs: Observation, rng: random.Random, config: HardConfig, ruleset: Ruleset) -> Play:
    candidates = [m for m in obs.legal_moves if isinstance(m, Play)]
    if len(candidates) == 1:
        return candidates[0]
    assert obs.seat is not None
    deals = _Deals(obs, ruleset, config)
    base = public_state(obs, ruleset)
    team = obs.seat % 2
    values: list[list[float]] = [[] for _ in candidates]
    clock = _Clock(config)
    done = 0
    batch = config.batch if config.samples is None else min(config.batch, config.samples)
    batch_seconds = 0.0
    while clock.more(done, batch_seconds):
        started = time.perf_counter()
        size = batch if config.samples is None else min(batch, config.samples - done)
        for hands in deals.draw(rng, size):
            state = with_hands(base, obs, deals.knowledge, hands)
            playout = Playout(state, team, config.endgame_cards)
            for i, move in enumerate(candidates):
                values[i].append(playout.evaluate(move.card))
        done += size
        batch_seconds = time.perf_counter() - started
        if config.samples is None and done >= config.min_samples and _settled(values, config):
            break
    means = [sum(v) / len(v) for v in values]
    best = max(means)
    # Ties are common (equivalent cards): prefer the rule-of-thumb card among the best.
    fallback = easy.choose_play(obs)
    if fallback in candidates and means[candidates.index(fallback)] >= best - 1e-9:
        return fallback
    return candidates[means.index(best)]


def _settled(values: list[list[float]], config: HardConfig) -> bool:
    """Whether the best card leads every other by ``stop_z`` standard errors of the paired
    difference (deal by deal)."""
    n = len(values[0])
    means = [sum(v) / n for v in values]
    best = means.index(max(means))
    for i, other in enumerate(values):
        if i == best:
            continue
        diffs = [a - b for a, b in zip(values[best], other, strict=True)]
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        if mean <= config.stop_z * math.sqrt(var / n):
            return False
    return True


# --- Doubling -----------------------------------------------------------------------------


def choose_double(
    obs: Observation, rng: random.Random, config: HardConfig, ruleset: Ruleset
) -> Double:
    legal = [m for m in obs.legal_moves if isinstance(m, Double)]
    raises = [m for m in legal if m.call is not DoubleCall.PASS]
    stay = next(m for m in legal if m.call is DoubleCall.PASS)
    if not raises:
        return stay
    contract = obs.contract
    assert contract is not None and obs.seat is not None
    team = obs.seat % 2
    deals = _Deals(obs, ruleset, config)
    dealt = deals.draw(rng, config.double_samples)
    if raises[0].call is DoubleCall.GAHWA:
        # R24/R43: the round decides the match. Only with a round we are very likely to take.
        wins = 0
        for hands in dealt:
            state = _doubling_state(obs, contract, ruleset, hands, deals.knowledge, 4, False, True)
            wins += Playout(state, team).value() > 0
        return raises[0] if wins >= config.gahwa_chance * len(dealt) else stay
    level = obs.multiplier
    options: list[tuple[Double, int, bool]] = [(stay, level, obs.locked)]
    for move in raises:
        locked = _locked_after(move, contract, ruleset)
        options.append((move, level + 1, locked))
    totals = [0.0] * len(options)
    for hands in dealt:
        for i, (_, multiplier, locked) in enumerate(options):
            state = _doubling_state(
                obs, contract, ruleset, hands, deals.knowledge, multiplier, locked, False
            )
            totals[i] += Playout(state, team).value()
    best = max(range(1, len(options)), key=lambda i: totals[i])
    gain = (totals[best] - totals[0]) / len(dealt)
    return options[best][0] if gain > config.double_margin else stay


def _locked_after(move: Double, contract: Contract, ruleset: Ruleset) -> bool:
    """Whether the round would be locked if the ladder stopped after ``move`` (R23, S10)."""
    if contract.mode is not Mode.HOKUM or move.call not in (DoubleCall.DOUBLE, DoubleCall.FOUR):
        return False
    return bool(move.locked) if ruleset.lock_chosen_by_caller else True


def _doubling_state(
    obs: Observation,
    contract: Contract,
    ruleset: Ruleset,
    hands: tuple[int, int, int, int],
    knowledge: Knowledge,
    multiplier: int,
    locked: bool,
    gahwa: bool,
) -> GameState:
    """The round about to be played with these hands, at this level, every seat declaring
    its best projects (R30)."""
    full = list(hands)
    full[knowledge.seat] = knowledge.own
    declarations = []
    for i in range(4):
        seat = (contract.declarer + i) % 4
        best = best_declaration(full[seat], contract.mode)
        if best:
            declarations.append((seat, best))
    ladder = Ladder(rung=None, queue=(), multiplier=multiplier, gahwa=gahwa, closed=locked)
    return playing_state(
        ruleset=ruleset,
        contract=contract,
        hands=(full[0], full[1], full[2], full[3]),
        dealer=obs.dealer,
        scores=obs.scores,
        target=obs.target,
        ladder=ladder,
        leader=first_leader(ruleset, contract, obs.dealer),
        declarations=tuple(declarations),
        baloot_seat=baloot_holder(full, contract.trump),
    )


# --- Bidding ------------------------------------------------------------------------------


def choose_bid(obs: Observation, rng: random.Random, config: HardConfig, ruleset: Ruleset) -> Bid:
    assert obs.seat is not None and obs.face_up is not None
    seat = obs.seat
    hand = easy.hand_mask(obs)
    face_suit = obs.face_up >> 3
    legal = [m for m in obs.legal_moves if isinstance(m, Bid)]
    round_two = easy.is_round_two(obs)
    beliefs = beliefs_of(obs, ruleset)
    # The same deals for every option: the comparison is then far less noisy.
    seed = rng.getrandbits(64)

    def value(kind: Call, trump: int | None) -> float:
        return _contract_value(
            obs=obs,
            hand=hand,
            kind=kind,
            trump=trump,
            bidding_round=2 if round_two else 1,
            samples=config.bid_samples,
            rng=random.Random(seed),
            ruleset=ruleset,
            beliefs=beliefs,
        )

    options: dict[Bid, float] = {}
    for move in legal:
        if move.call is Call.PASS:
            continue
        if move.call is not Call.HOKUM:
            options[move] = value(move.call, None)
        elif move.suit is not None:  # R17 choice
            options[move] = value(Call.HOKUM, move.suit)
        elif round_two:  # the suit is named later: value the best one
            options[move] = max(value(Call.HOKUM, s) for s in range(4) if s != face_suit)
        else:
            options[move] = value(Call.HOKUM, face_suit)
    best = max(options, key=lambda m: options[m])
    if Bid(Call.PASS) not in legal:
        return best
    standing = next((s for s, b in reversed(obs.calls) if b.call is not Call.PASS), None)
    threshold = PASS_VALUE_PARTNER_BID if standing == (seat + 2) % 4 else PASS_VALUE
    return best if options[best] > threshold else Bid(Call.PASS)


def _contract_value(
    *,
    obs: Observation,
    hand: int,
    kind: Call,
    trump: int | None,
    bidding_round: int,
    samples: int,
    rng: random.Random,
    ruleset: Ruleset,
    beliefs: Beliefs,
) -> float:
    """Mean margin for our team if our seat declares this contract at x1, over deals of the
    26 unseen cards weighed by the calls made so far."""
    assert obs.seat is not None and obs.face_up is not None
    seat = obs.seat
    face_up: Card = obs.face_up
    mode = Mode.SUN if trump is None else Mode.HOKUM
    recipient = (seat + 2) % 4 if kind is Call.ASHKAL else seat
    contract = Contract(
        kind=kind,
        mode=mode,
        trump=trump,
        declarer=seat,
        recipient=recipient,
        bidding_round=bidding_round,
        face_up=face_up,
    )
    total = 0.0
    weight_sum = 0.0
    for _ in range(samples):
        hands = _deal(hand, face_up, seat, recipient, rng)
        weight = beliefs.weight((hands[0], hands[1], hands[2], hands[3]))
        if weight <= 0:
            continue
        declarations = []
        for i in range(4):
            s = (seat + i) % 4
            declared = best_declaration(hands[s], mode)
            if declared:
                declarations.append((s, declared))
        state = playing_state(
            ruleset=ruleset,
            contract=contract,
            hands=(hands[0], hands[1], hands[2], hands[3]),
            dealer=obs.dealer,
            scores=obs.scores,
            declarations=tuple(declarations),
            baloot_seat=baloot_holder(hands, trump),
        )
        total += weight * Playout(state, seat % 2).value()
        weight_sum += weight
    return total / weight_sum if weight_sum else 0.0


__all__ = ["DEFAULT_CONFIG", "HardConfig", "choose"]
