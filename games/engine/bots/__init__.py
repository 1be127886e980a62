"""Bots for the pure engine. They decide from an ``Observation`` only, never a GameState.

    move = choose_move("normal", observation(state, seat), rng)
    state = apply(state, seat, move)

A bot may return a ``Declare`` on its first turn of trick 1 (when ``projects_suggested`` is
non-empty); it is then asked again and plays. Every other move is one of ``legal_moves``.
All randomness comes from the ``random.Random`` the caller passes.
"""

from __future__ import annotations

import random

from ..moves import Move, Sawa
from ..observation import Observation
from ..rulesets import GAMERULES, Ruleset
from . import easy, hard, normal, random_bot
from .claim import prefer_closed, sure_sawa
from .hard import HardConfig
from .normal import NormalConfig

BOT_LEVELS: tuple[str, ...] = ("random", "easy", "normal", "hard")


def choose_move(
    level: str,
    obs: Observation,
    rng: random.Random,
    *,
    normal_config: NormalConfig | None = None,
    hard_config: HardConfig | None = None,
    ruleset: Ruleset = GAMERULES,
) -> Move:
    """The move the bot of ``level`` makes for ``obs.seat``; it must be that seat's turn."""
    if not obs.legal_moves:
        raise ValueError("it is not this seat's turn")
    if level == "random":
        return random_bot.choose(obs, rng)
    if level not in BOT_LEVELS:
        raise ValueError(f"unknown bot level {level!r}; choose from {BOT_LEVELS}")
    # S20-S22 and S10 (saudi): a provable Sawa first; raises closed when the caller chooses.
    # Neither ever comes up in gamerules, whose legal moves have no Sawa and no `locked`.
    if sure_sawa(obs):
        return Sawa()
    if level == "easy":
        move = easy.choose(obs, rng)
    elif level == "normal":
        move = normal.choose(obs, rng, normal_config or normal.DEFAULT_CONFIG, ruleset)
    else:
        move = hard.choose(obs, rng, hard_config or hard.DEFAULT_CONFIG, ruleset)
    return prefer_closed(move, obs)


__all__ = ["BOT_LEVELS", "HardConfig", "NormalConfig", "choose_move"]
