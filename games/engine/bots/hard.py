"""The hard bot (work in progress: for now the normal bot's search with the hard bot's time
budget; the search of its own comes next)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..moves import Move
from ..observation import Observation
from ..rulesets import GAMERULES, Ruleset
from . import normal


@dataclass(frozen=True, slots=True)
class HardConfig:
    # Wall-clock budget per decision, in seconds (ignored when ``samples`` is set).
    budget: float = 1.0
    # A fixed number of deals per card decision: deterministic given the rng (tests, evals).
    samples: int | None = None


DEFAULT_CONFIG = HardConfig()


def choose(
    obs: Observation,
    rng: random.Random,
    config: HardConfig = DEFAULT_CONFIG,
    ruleset: Ruleset = GAMERULES,
) -> Move:
    normal_config = normal.NormalConfig(
        budget=config.budget, samples=config.samples, max_samples=2000
    )
    return normal.choose(obs, rng, normal_config, ruleset)
