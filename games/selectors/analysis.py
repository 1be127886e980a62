"""A match's post-game analysis as its readers see it: per seat, the decisions valued, the
mean loss, the accuracy (``games.engine.analysis`` defines both) and the costliest decisions."""

from __future__ import annotations

from collections import defaultdict
from statistics import fmean
from typing import Any

from games import engine
from games.engine.analysis import accuracy_of
from games.models import AnalysisStatus, Match, MatchAnalysis
from games.selectors.seats import seat_display_name

# The costliest decisions shown per seat.
WORST_SHOWN = 5


def analysis_json(match: Match) -> dict[str, Any]:
    """``GET /matches/{id}/analysis`` of a finished match (pending until the task is done)."""
    row = MatchAnalysis.objects.filter(match=match).first()
    body: dict[str, Any] = {
        "match_id": match.pk,
        "status": row.status if row is not None else AnalysisStatus.PENDING,
        "seed": row.seed if row is not None else None,
        "play_samples": row.play_samples if row is not None else None,
        "bid_samples": row.bid_samples if row is not None else None,
        "players": [],
    }
    if row is None or row.status != AnalysisStatus.READY:
        return body
    rules = engine.get_ruleset(match.ruleset)
    by_seat: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for stored in row.decisions:
        by_seat[stored[2]].append(_decision_json(stored, rules))
    for seat in match.seat_list():
        mine = by_seat.get(seat.index, [])
        losses = [d["loss"] for d in mine]
        body["players"].append(
            {
                "seat": seat.index,
                "display_name": seat_display_name(seat),
                "bot": seat.bot or None,
                "decisions": len(mine),
                "mean_loss": round(fmean(losses), 3) if mine else None,
                "accuracy": round(100 * fmean(accuracy_of(x) for x in losses), 1) if mine else None,
                "worst": sorted((d for d in mine if d["loss"] > 0), key=lambda d: -d["loss"])[
                    :WORST_SHOWN
                ],
            }
        )
    return body


def _decision_json(stored: list[Any], rules: engine.Ruleset) -> dict[str, Any]:
    # Two more figures follow for moderators only (partner_loss, trick: MatchAnalysis).
    number, action, seat, kind, chosen, best, chosen_value, best_value, options = stored[:9]
    return {
        "round": number,
        "action": action,
        "seat": seat,
        "kind": kind,
        "chosen": engine.move_from_dict(chosen, rules),
        "best": engine.move_from_dict(best, rules),
        "chosen_value": chosen_value,
        "best_value": best_value,
        "loss": round(max(0.0, best_value - chosen_value), 3),
        "options": options,
    }
