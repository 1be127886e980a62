"""Playing matches in-process through the services, fast: each move is one locked
``move_apply`` with a move the engine lists as legal, as the API would make it."""

from __future__ import annotations

import random
from collections.abc import Callable

from django.db import transaction

from games import engine, services
from games.models import Actor, Match, MatchStatus


def always_pass_first_round(
    state: engine.GameState, legal: list[engine.Move]
) -> engine.Move | None:
    """Pass every bid of round 1 (a redeal, R12), then leave the choice to chance."""
    if state.round_no == 1:
        passes = [m for m in legal if isinstance(m, engine.Bid) and m.call is engine.Call.PASS]
        if passes:
            return passes[0]
    return None


def _declaration(state: engine.GameState, seat: int, rng: random.Random) -> engine.Move | None:
    # Declaring is never among the legal moves: declare the best projects most of the time
    # they are there, so records carry declarations too (R30).
    if not engine.may_declare(state, seat) or state.contract is None or rng.random() < 0.2:
        return None
    projects = engine.best_declaration(state.hands[seat], state.contract.mode)
    return engine.Declare(projects) if projects else None


def play(
    match_id: int,
    rng: random.Random,
    *,
    until: Callable[[engine.GameState], bool] = lambda state: False,
    prefer: Callable[[engine.GameState, list[engine.Move]], engine.Move | None] | None = None,
    limit: int = 5000,
) -> Match:
    """Play legal moves until the match is over or ``until`` holds for its state."""
    for _ in range(limit):
        with transaction.atomic():
            match = services.match_lock(match_id)
            state = match.load_state()
            if match.status != MatchStatus.ACTIVE or state is None or until(state):
                return match
            seat = engine.to_act(state)
            assert seat is not None
            legal = list(engine.legal_moves(state))
            move = (prefer(state, legal) if prefer else None) or _declaration(state, seat, rng)
            move = move or rng.choice(legal)
            services.move_apply(match=match, seat=seat, move=move, actor=Actor.HUMAN)
    raise AssertionError("the match did not reach the wanted state")
