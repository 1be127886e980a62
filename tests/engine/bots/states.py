"""Seeded random game states for the bot tests, reached through the engine's own ``apply``."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from games.engine import (
    Bid,
    Call,
    Declare,
    GameState,
    Phase,
    apply,
    legal_moves,
    new_match,
    start_round,
)
from games.engine.bots import choose_move
from games.engine.projects import best_declaration
from games.engine.rules import may_declare, to_act
from games.engine.rulesets import Ruleset
from games.engine.selfplay import play_match


def seat_of(state: GameState) -> int:
    """The seat to act in a live state (``to_act`` is None only between rounds)."""
    seat = to_act(state)
    assert seat is not None
    return seat


def random_states(seed: int, rounds: int, scores: tuple[int, int] = (0, 0)) -> Iterator[GameState]:
    """Every state met while random players play ``rounds`` deals (redeals included).

    Players declare their best projects half of the time so that declarations, public and
    secret, appear in the states."""
    rng = random.Random(seed)
    state = new_match(dealer=seed % 4, scores=scores, target=10_000)
    for _ in range(rounds):
        deck = list(range(32))
        rng.shuffle(deck)
        state = start_round(state, deck)
        while state.phase not in (Phase.DEAL, Phase.FINISHED):
            yield state
            seat = to_act(state)
            assert seat is not None
            if may_declare(state, seat) and rng.random() < 0.5:
                assert state.contract is not None
                projects = best_declaration(state.hands[seat], state.contract.mode)
                if projects:
                    state = apply(state, seat, Declare(projects))
                    yield state
            moves = legal_moves(state)
            if Bid(Call.PASS) in moves and rng.random() < 0.6:
                # Passing more often than uniformly reaches round 2 (R16-R17) in many deals.
                state = apply(state, seat, Bid(Call.PASS))
            else:
                state = apply(state, seat, rng.choice(moves))
        if state.phase is Phase.FINISHED:
            return


def bot_match_states(ruleset: Ruleset, seed: int) -> list[GameState]:
    """Every state of a match of easy bots: they declare, double and (saudi) trump as the
    rules make them, which is what the bots' evidence is about."""

    def easy(obs: Any, rng: random.Random) -> Any:
        return choose_move("easy", obs, rng, ruleset=ruleset)

    end = play_match(random.Random(seed), [easy] * 4, ruleset=ruleset, target=200)
    # play_match returns the end; replay its rounds to see every state on the way.
    first = end.history[0]
    state = new_match(ruleset, dealer=first.dealer, target=end.target)
    states: list[GameState] = []
    for log in end.history:
        state = start_round(state, log.deck)
        for seat, move in log.actions:
            states.append(state)
            state = apply(state, seat, move)
    return states
