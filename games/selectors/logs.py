"""What has happened in a match: the public move log and the score sheet."""

from __future__ import annotations

from typing import Any

from games import engine
from games.models import Match, Move, Round, RoundStatus, Seat


def move_log(match: Match, viewer: Seat | None, after: int, limit: int) -> list[dict[str, Any]]:
    """At most ``limit`` entries of the public log after version ``after``. A declaration's
    cards stay hidden from other seats until trick 1 of its round is complete (api.md)."""
    moves = list(Move.objects.filter(match=match, version__gt=after).order_by("seq")[:limit])
    state = match.load_state()
    open_round = None
    if state is not None and state.phase is not engine.Phase.FINISHED and not state.tricks:
        open_round = state.round_no  # trick 1 of this round is not complete yet
    viewer_index = viewer.index if viewer else None
    out = []
    for move in moves:
        payload = dict(move.payload)
        if (
            payload.get("type") == "declare"
            and move.round_number == open_round
            and move.seat != viewer_index
        ):
            payload["projects"] = [{"kind": p["kind"], "cards": None} for p in payload["projects"]]
        out.append(
            {
                "seq": move.seq,
                "version": move.version,
                "round": move.round_number,
                "seat": move.seat,
                "actor": move.actor,
                **payload,
                "created_at": move.created_at,
            }
        )
    return out


def score_sheet(match: Match, after: int = 0, limit: int | None = None) -> list[dict[str, Any]]:
    """The finished rounds numbered after ``after``, in order, at most ``limit`` of them."""
    rounds = (
        Round.objects.filter(match=match, number__gt=after)
        .exclude(status=RoundStatus.IN_PROGRESS)
        .order_by("number")
    )
    if limit is not None:
        rounds = rounds[:limit]
    rows = []
    for rnd in rounds:
        result = rnd.result or {}
        rows.append(
            {
                "number": rnd.number,
                "dealer": rnd.dealer,
                "status": rnd.status,
                "contract": rnd.contract,
                "abnat": result.get("abnat"),
                "card_points": result.get("card_points"),
                "projects": result.get("projects"),
                "baloot": result.get("baloot", []),
                "kaboot": result.get("kaboot"),
                "bidder_team": result.get("bidder_team"),
                "bidder_failed": result.get("bidder_failed"),
                "points": result.get("points", [0, 0]),
                "gahwa_winner": result.get("gahwa_winner"),
                "totals": rnd.scores_after,
            }
        )
    return rows
