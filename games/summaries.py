"""JSON summaries of finished rounds, as the record format writes them (record-format.md).

Stored on ``Round`` when a round ends so the score sheet and the admin read rows, not pickles.
"""

from __future__ import annotations

from typing import Any

from games import engine
from games.engine.cards import card_names, card_str
from games.engine.moves import project_to_dict
from games.engine.observation import contract_to_dict, trick_to_dict
from games.engine.scoring import RoundResult


def result_json(result: RoundResult) -> dict[str, Any]:
    return {
        "abnat": list(result.abnat),
        "card_points": list(result.card_points),
        "projects": {
            "declared": [
                {"seat": seat, "kind": p.kind.value, "cards": card_names(p.cards)}
                for seat, projects in result.declared
                for p in projects
            ],
            "awarded_team": result.awarded_team,
            "points": list(result.project_points),
        },
        "baloot": list(result.baloot),
        "kaboot": result.kaboot,
        "bidder_team": result.bidder_team,
        "bidder_failed": result.bidder_failed,
        "points": list(result.points),
        "gahwa_winner": result.gahwa_winner,
    }


def round_log_json(log: engine.RoundLog) -> dict[str, Any]:
    """Everything public about a finished round (its deck excepted: that is in the record)."""
    return {
        "number": log.number,
        "dealer": log.dealer,
        "status": log.status.value,
        "face_up": card_str(log.deck[20]),
        "contract": contract_to_dict(log.contract, log.multiplier, log.gahwa, log.locked),
        "tricks": [trick_to_dict(t) for t in log.tricks],
        "declarations": [
            {"seat": seat, "projects": [project_to_dict(p) for p in projects]}
            for seat, projects in log.result.declared
        ],
        "result": result_json(log.result),
        "scores_after": list(log.scores_after),
    }
