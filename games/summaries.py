"""Public summaries of finished rounds, in the record format's shapes (record-format.md)."""

from __future__ import annotations

from typing import Any

from games import engine
from games.engine.codec import project_to_dict
from games.engine.record import finished_round_to_dict


def round_log_json(log: engine.RoundLog) -> dict[str, Any]:
    """Everything public about a finished round (its deck excepted: that is in the record)."""
    return {
        "number": log.number,
        **finished_round_to_dict(log),
        "declarations": [
            {"seat": seat, "projects": [project_to_dict(p) for p in projects]}
            for seat, projects in log.result.declared
        ],
        "scores_after": list(log.scores_after),
    }
