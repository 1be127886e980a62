"""The normal bot: Perfect Information Monte Carlo for card play.

For each decision it deals the hidden cards many times consistently with its observation
(``determinize``), plays every legal card on every deal to the end of the round (heuristic
playouts, exact alpha-beta for the last three tricks) and picks the card with the best mean
round-score margin for its team. The same deals are used for every candidate, which cancels
most of the deal-to-deal noise between candidates. Bidding, doubling and declaring reuse the
easy bot's rules of thumb.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from ..moves import Declare, Move, Play
from ..observation import Observation
from ..rulesets import GAMERULES, Ruleset
from ..state import Phase
from . import easy
from .determinize import public_state, sample_hands, with_hands
from .knowledge import infer
from .simulate import Playout


@dataclass(frozen=True, slots=True)
class NormalConfig:
    # Wall-clock budget per card decision, in seconds (ignored when ``samples`` is set).
    budget: float = 0.12
    # A fixed number of deals per decision: deterministic given the rng, for tests and evals.
    samples: int | None = None
    min_samples: int = 4
    max_samples: int = 200


DEFAULT_CONFIG = NormalConfig()


def choose(
    obs: Observation,
    rng: random.Random,
    config: NormalConfig = DEFAULT_CONFIG,
    ruleset: Ruleset = GAMERULES,
) -> Move:
    if obs.projects_suggested:
        return Declare(obs.projects_suggested)
    if obs.phase is Phase.BIDDING:
        return easy.choose_bid(obs)
    if obs.phase is Phase.DOUBLING:
        return easy.choose_double(obs)
    return choose_play(obs, rng, config, ruleset)


def choose_play(
    obs: Observation, rng: random.Random, config: NormalConfig, ruleset: Ruleset
) -> Play:
    candidates = [m for m in obs.legal_moves if isinstance(m, Play)]
    if len(candidates) == 1:
        return candidates[0]
    assert obs.seat is not None
    fallback = easy.choose_play(obs)
    knowledge = infer(obs)
    base = public_state(obs, ruleset)
    team = obs.seat % 2
    totals = [0.0] * len(candidates)
    start = time.perf_counter()
    n = 0
    while True:
        state = with_hands(base, obs, knowledge, sample_hands(knowledge, rng))
        playout = Playout(state, team)
        for i, move in enumerate(candidates):
            totals[i] += playout.evaluate(move.card)
        n += 1
        if config.samples is not None:
            if n >= config.samples:
                break
            continue
        elapsed = time.perf_counter() - start
        # Stop before a further deal would overrun the budget.
        if n >= config.max_samples or (
            n >= config.min_samples and elapsed * (n + 1) / n > config.budget
        ):
            break
    best = max(totals)
    # Ties are common (equivalent cards): prefer the rule-of-thumb choice among the best.
    if totals[candidates.index(fallback)] >= best - 1e-9:
        return fallback
    return candidates[totals.index(best)]
