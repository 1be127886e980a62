"""``baloot-record/1`` exports built from the log: each round's deck and salt plus its moves.

Only finished rounds are exported (their deck is public once they are over); the record then
replays with ``python -m games.engine replay`` to the same scores.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from games.models import Match, Move, Round, RoundStatus


def _round_json(rnd: Round, actions: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "number": rnd.number,
        "deck": rnd.deck,
        "salt": rnd.salt,
        "commitment": rnd.commitment,
        "actions": actions,
    }


def _actions_by_round(match: Match, numbers: list[int]) -> dict[int, list[dict[str, Any]]]:
    grouped: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for seat, round_number, payload in (
        Move.objects.filter(match=match, round_number__in=numbers)
        .order_by("seq")
        .values_list("seat", "round_number", "payload")
    ):
        grouped[round_number].append({"seat": seat, **payload})
    return grouped


def round_record(match: Match, rnd: Round) -> dict[str, Any]:
    assert rnd.status != RoundStatus.IN_PROGRESS
    actions = _actions_by_round(match, [rnd.number])
    return {
        "format": "baloot-record/1",
        "ruleset": match.ruleset,
        "rules_version": match.rules_version,
        "dealer": rnd.dealer,
        "scores": rnd.scores_before,
        "target": match.target,
        "rounds": [_round_json(rnd, actions[rnd.number])],
    }


def match_record(match: Match) -> dict[str, Any]:
    """The whole match; only for a match that has ended. A round cut short by a resignation
    or adjudication is left out (its deck stays secret and it changed no score)."""
    rounds = list(Round.objects.filter(match=match).exclude(status=RoundStatus.IN_PROGRESS))
    actions = _actions_by_round(match, [r.number for r in rounds])
    return {
        "format": "baloot-record/1",
        "ruleset": match.ruleset,
        "rules_version": match.rules_version,
        "dealer": match.first_dealer,
        "scores": [0, 0],
        "target": match.target,
        "rounds": [_round_json(r, actions[r.number]) for r in rounds],
        "result": {
            "winner_team": match.winner_team,
            "end_reason": match.end_reason or None,
            "scores": match.scores,
        },
    }
