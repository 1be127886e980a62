"""The random bot: a uniform choice among the legal moves; it never declares projects."""

from __future__ import annotations

import random

from ..moves import Move
from ..observation import Observation


def choose(obs: Observation, rng: random.Random) -> Move:
    if not obs.legal_moves:
        raise ValueError("it is not this seat's turn")
    return rng.choice(obs.legal_moves)
