"""The match as one caller may see it (``GET /matches/{id}`` and every write's answer).

Every view of a live round is built from ``engine.observation(state, seat)``, the engine's
own definition of what that seat may know, so no selector can leak another seat's cards.
"""

from __future__ import annotations

from typing import Any

from games import engine
from games.models import Match, MatchStatus, Seat
from games.selectors.seats import is_automatic, seat_json
from games.summaries import round_log_json


def match_view(match: Match, viewer: Seat | None) -> dict[str, Any]:
    """The match as ``viewer`` (a seat, or None for an outsider) may see it."""
    seats = match.seat_list()
    seat_index = viewer.index if viewer is not None else None
    body: dict[str, Any] = {
        "id": match.pk,
        "status": match.status,
        "ruleset": match.ruleset,
        "rules_version": match.rules_version,
        "target": match.target,
        "turn_seconds": match.turn_seconds,
        "visibility": match.visibility,
        "invite_code": match.invite_code if viewer is not None and match.invite_code else None,
        "version": match.version,
        "scores": match.scores,
        "winner_team": match.winner_team,
        "end_reason": match.end_reason or None,
        "my_seat": seat_index,
        "seats": [seat_json(s) for s in seats],
        "created_at": match.created_at,
        "round": None,
        "previous_round": None,
    }
    state = match.load_state()
    if state is None:
        return body
    commitments = {int(n): digest for n, digest in match.recent_commitments.items()}
    if state.phase in (engine.Phase.BIDDING, engine.Phase.DOUBLING, engine.Phase.PLAYING):
        obs = engine.observation(state, seat_index)
        current = engine.observation_to_dict(obs)
        current.pop("seat", None)
        to_act = obs.to_act
        acting_seat = next((s for s in seats if s.index == to_act), None)
        human_turn = acting_seat is not None and not is_automatic(acting_seat)
        current["deadline"] = match.deadline if human_turn else None
        current["deck_commitment"] = commitments.get(state.round_no)
        if current["legal_moves"] and current["projects_suggested"]:
            # api.md "Declarations": while declaring is legal, legal_moves holds the suggested
            # declaration, postable as it is, so a client that plays from legal_moves declares.
            # The engine's legal_moves leaves declarations out (they are checked when made);
            # bots and records rely on that, so the item is added here, for clients only.
            current["legal_moves"].append(
                {"type": "declare", "projects": current["projects_suggested"]}
            )
        if match.status != MatchStatus.ACTIVE:
            # Ended mid-round (resigned, adjudicated, abandoned): nobody is to move any more.
            current.update(
                to_act=None,
                deadline=None,
                legal_moves=[],
                projects_available=[],
                projects_suggested=[],
            )
        body["round"] = current
        if state.history:
            body["previous_round"] = _finished_round(state.history[-1], commitments)
    elif state.history:
        # A finished match shows its last round as `round` (api.md); it is all public now.
        body["round"] = _final_round(state.history[-1], commitments)
    return body


def _finished_round(log: engine.RoundLog, commitments: dict[int, str]) -> dict[str, Any]:
    out = round_log_json(log)
    out["deck_commitment"] = commitments.get(log.number)
    return out


def _final_round(log: engine.RoundLog, commitments: dict[int, str]) -> dict[str, Any]:
    summary = round_log_json(log)
    return {
        "phase": "over",
        "number": log.number,
        "dealer": log.dealer,
        "face_up": summary["face_up"],
        "to_act": None,
        "hand": [],
        "card_counts": [0, 0, 0, 0],
        "calls": [
            {"seat": s, **engine.move_to_dict(m)}
            for s, m in log.actions
            if isinstance(m, engine.Bid)
        ],
        "doubles": [
            {"seat": s, **engine.move_to_dict(m)}
            for s, m in log.actions
            if isinstance(m, engine.Double)
        ],
        "contract": summary["contract"],
        "doubler": None,
        "current_trick": None,
        "last_trick": summary["tricks"][-1] if summary["tricks"] else None,
        "tricks_played": len(log.tricks),
        "abnat": summary["result"]["abnat"],
        "trick_counts": [sum(1 for t in log.tricks if t.winner % 2 == team) for team in (0, 1)],
        "projects": [
            {
                "seat": d["seat"],
                "kinds": [p["kind"] for p in d["projects"]],
                "projects": d["projects"],
            }
            for d in summary["declarations"]
        ],
        "baloot": summary["result"]["baloot"],
        "legal_moves": [],
        "projects_available": [],
        "projects_suggested": [],
        "deadline": None,
        "deck_commitment": commitments.get(log.number),
    }
