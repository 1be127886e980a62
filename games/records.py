"""``baloot-record/1`` exports built from the log: each round's deck and salt plus its moves.

Only finished rounds are exported (their deck is public once they are over); the record then
replays with ``python -m games.engine replay`` to the same scores.

The shapes are the engine's exporter (``record_of``/``record_round``, the codec's actions);
this module adds what only the service knows, in the places the API has always sent them: the
rules version, each round's number, its salt and the commitment as it was published, and the
match's result.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from games import engine
from games.engine.record import record_of, record_round
from games.models import Match, Move, Round, RoundStatus


def _round_json(rnd: Round, actions: list[tuple[int, engine.Move]]) -> dict[str, Any]:
    exported = record_round(rnd.deck, actions)
    return {
        "number": rnd.number,
        "deck": exported["deck"],
        "salt": rnd.salt,
        # The stored commitment, not one recomputed from the deck: a reader checks the deck
        # against what the players were shown when it was dealt.
        "commitment": rnd.commitment,
        "actions": exported["actions"],
    }


def _actions_by_round(match: Match, numbers: list[int]) -> dict[int, list[tuple[int, engine.Move]]]:
    grouped: dict[int, list[tuple[int, engine.Move]]] = defaultdict(list)
    rules = engine.get_ruleset(match.ruleset)  # `sawa` and `locked` exist in `saudi` only
    for seat, round_number, payload in (
        Move.objects.filter(match=match, round_number__in=numbers)
        .order_by("seq")
        .values_list("seat", "round_number", "payload")
    ):
        grouped[round_number].append((seat, engine.move_from_dict(payload, rules)))
    return grouped


def _record(
    match: Match, dealer: int, scores: Sequence[int], rounds: list[dict[str, Any]]
) -> dict[str, Any]:
    exported = record_of(match.ruleset, dealer, scores, match.target, rounds)
    head = {key: exported.pop(key) for key in ("format", "ruleset")}
    return {**head, "rules_version": match.rules_version, **exported}


def round_record(match: Match, rnd: Round) -> dict[str, Any]:
    assert rnd.status != RoundStatus.IN_PROGRESS
    actions = _actions_by_round(match, [rnd.number])
    return _record(match, rnd.dealer, rnd.scores_before, [_round_json(rnd, actions[rnd.number])])


def match_record(match: Match) -> dict[str, Any]:
    """The whole match; only for a match that has ended. A round cut short by a resignation
    or adjudication is left out (its deck stays secret and it changed no score)."""
    rounds = list(Round.objects.filter(match=match).exclude(status=RoundStatus.IN_PROGRESS))
    actions = _actions_by_round(match, [r.number for r in rounds])
    return {
        **_record(
            match, match.first_dealer, [0, 0], [_round_json(r, actions[r.number]) for r in rounds]
        ),
        "result": {
            "winner_team": match.winner_team,
            "end_reason": match.end_reason or None,
            "scores": match.scores,
        },
    }
