"""Rebuild a match's engine state from the truth: each round's deck and the move log.

The stored snapshot is only a cache of this (architecture.md "State is the replay of the
log"); tests compare the two, and a moderator can rebuild a damaged snapshot from it.
"""

from __future__ import annotations

from collections import defaultdict

from games import engine
from games.engine.cards import parse_card
from games.models import Match, Move, Round


def state_from_log(match: Match) -> engine.GameState | None:
    rounds = list(Round.objects.filter(match=match).order_by("number"))
    if not rounds:
        return None
    moves: dict[int, list[tuple[int, dict]]] = defaultdict(list)
    for seat, number, payload in (
        Move.objects.filter(match=match)
        .order_by("seq")
        .values_list("seat", "round_number", "payload")
    ):
        moves[number].append((seat, payload))
    state = engine.new_match(
        engine.get_ruleset(match.ruleset), dealer=match.first_dealer, target=match.target
    )
    for rnd in rounds:
        state = engine.start_round(state, [parse_card(c) for c in rnd.deck])
        for seat, payload in moves[rnd.number]:
            state = engine.apply(state, seat, engine.move_from_dict(payload))
    return state
