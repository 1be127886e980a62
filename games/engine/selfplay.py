"""Matches between bots, for the command line, the benchmark and the playout tests.

A bot is any ``choose(observation, rng) -> Move`` callable: it sees only its own observation
and draws randomness only from the ``random.Random`` it is handed, so a match is a pure
function of its seed. ``random_choose`` is the baseline; ``load_bot`` finds the others in
``games.engine.bots``.
"""

from __future__ import annotations

import functools
import importlib
import random
from collections.abc import Callable, Sequence

from .cards import DECK, Card
from .moves import Declare, Move
from .observation import Observation, observation
from .rules import apply, new_match, start_round, to_act
from .rulesets import GAMERULES, Ruleset
from .state import GameState, Phase

Chooser = Callable[[Observation, random.Random], Move]

# Redeals never change the scores, so a match of all-passing bots could in principle go on
# forever; no real match comes near this many rounds.
MAX_ROUNDS = 1000


def shuffled_deck(rng: random.Random) -> tuple[Card, ...]:
    deck = list(DECK)
    rng.shuffle(deck)
    return tuple(deck)


def random_choose(obs: Observation, rng: random.Random) -> Move:
    """A uniformly random legal move; on its first turn of trick 1 it declares its best
    projects first (the engine then asks it again for the card)."""
    if obs.projects_suggested:
        return Declare(obs.projects_suggested)
    return rng.choice(obs.legal_moves)


def load_bot(name: str, ruleset: Ruleset = GAMERULES) -> Chooser:
    """``random`` (this module's, which declares), a level of ``games.engine.bots``
    (``choose_move(level, obs, rng)`` for ``ruleset``), or the ``choose`` of
    ``games.engine.bots.<name>``."""
    if name == "random":
        return random_choose
    bots = importlib.import_module("games.engine.bots")
    if name in getattr(bots, "BOT_LEVELS", ()):
        if ruleset is GAMERULES:  # the call gamerules matches always made
            return functools.partial(bots.choose_move, name)
        return functools.partial(bots.choose_move, name, ruleset=ruleset)
    try:
        module = importlib.import_module(f"games.engine.bots.{name}")
    except ImportError as exc:
        raise ValueError(f"no bot named {name!r}") from exc
    choose = getattr(module, "choose", None)
    if not callable(choose):
        raise ValueError(f"games.engine.bots.{name} has no choose(observation, rng)")
    chooser: Chooser = choose  # found by name: the module's contract, not its types
    return chooser


def play_match(
    rng: random.Random,
    bots: Sequence[Chooser],
    *,
    ruleset: Ruleset = GAMERULES,
    dealer: int | None = None,
    target: int | None = None,
) -> GameState:
    """Play a whole match; ``bots[seat]`` moves for each seat. Decks come from ``rng``."""
    if dealer is None:
        dealer = rng.randrange(4)  # R2: the first dealer is chosen at random
    state = new_match(ruleset, dealer=dealer, target=target)
    while state.phase is not Phase.FINISHED:
        if state.phase is Phase.DEAL:
            if state.round_no >= MAX_ROUNDS:
                raise RuntimeError(f"no winner after {MAX_ROUNDS} rounds")
            state = start_round(state, shuffled_deck(rng))
            continue
        seat = to_act(state)
        assert seat is not None
        state = apply(state, seat, bots[seat](observation(state, seat), rng))
    return state
