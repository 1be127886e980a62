"""Reads: what each caller may see of a match, their inbox, the score sheet, the move log.

Every view of a live round is built from ``engine.observation(state, seat)``, the engine's
own definition of what that seat may know, so no selector can leak another seat's cards.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.db.models import Case, F, IntegerField, Q, QuerySet, Value, When
from django.db.models.functions import Coalesce

from accounts.models import User
from games import engine
from games.errors import MatchNotFound
from games.models import Match, MatchStatus, Move, Round, RoundStatus, Seat, Visibility
from games.summaries import round_log_json
from games.turns import is_automatic


def match_for_viewer(match_id: int, user: User) -> tuple[Match, Seat | None]:
    """The match and the caller's seat; a private match is 404 to anyone not seated.

    Staff included: they see everything in the admin only (api.md), so the API holds a staff
    account to the same rule as any other player.
    """
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        raise MatchNotFound()
    mine = next((s for s in match.seat_list() if s.user_id == user.pk), None)
    if mine is None and match.visibility == Visibility.PRIVATE:
        raise MatchNotFound()
    return match, mine


def seat_json(seat: Seat) -> dict[str, Any]:
    if seat.user_id is not None:
        name: str | None = seat.user.display_name or seat.user.username
    elif seat.bot:
        name = f"{seat.bot.capitalize()} bot"
    else:
        name = None
    return {
        "seat": seat.index,
        "display_name": name,
        "team": seat.team,
        "bot": seat.bot or None,
        "away": seat.away,
        "empty": seat.is_empty,
    }


def etag_for(match_id: int, version: int, seat_index: int | None) -> str:
    """Identifies the match version as this caller sees it (api.md "ETag")."""
    return f'W/"m{match_id}-v{version}-s{"x" if seat_index is None else seat_index}"'


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


# --- Lists ----------------------------------------------------------------------------------


def matches_visible_to(user: User) -> QuerySet[Match]:
    return Match.objects.filter(Q(seats__user=user) | Q(visibility=Visibility.PUBLIC)).distinct()


def lobby() -> QuerySet[Match]:
    return Match.objects.filter(
        status=MatchStatus.WAITING,
        visibility=Visibility.PUBLIC,
        seats__user__isnull=True,
        seats__bot="",
    ).distinct()


_NO_DEADLINE = datetime(9999, 12, 31, tzinfo=UTC)


def inbox_for(user: User) -> QuerySet[Match]:
    """The caller's matches: their turn first, then by deadline, then most recent."""
    return (
        Match.objects.filter(seats__user=user)
        .annotate(
            my_seat_index=F("seats__index"),
            is_my_turn=Case(
                When(
                    Q(status=MatchStatus.ACTIVE, to_act=F("seats__index"), seats__away=False),
                    then=Value(1),
                ),
                default=Value(0),
                output_field=IntegerField(),
            ),
            # Matches without a deadline (waiting, over) sort after every deadline on every
            # database (SQLite puts NULLs first in ascending order, PostgreSQL last).
            deadline_order=Coalesce("deadline", Value(_NO_DEADLINE)),
        )
        .prefetch_related("seats__user")
    )


def match_summary(match: Match, user: User) -> dict[str, Any]:
    seats = list(match.seats.all())
    mine = next((s for s in seats if s.user_id == user.pk), None)
    my_turn = bool(getattr(match, "is_my_turn", 0))
    if not hasattr(match, "is_my_turn") and mine is not None:
        my_turn = (
            match.status == MatchStatus.ACTIVE and match.to_act == mine.index and not mine.away
        )
    return {
        "id": match.pk,
        "status": match.status,
        "visibility": match.visibility,
        "version": match.version,
        "scores": match.scores,
        "target": match.target,
        "turn_seconds": match.turn_seconds,
        "my_seat": mine.index if mine else None,
        "is_my_turn": my_turn,
        "to_act": match.to_act if match.status == MatchStatus.ACTIVE else None,
        "deadline": match.deadline if my_turn else None,
        "seats": [seat_json(s) for s in seats],
        "winner_team": match.winner_team,
        "end_reason": match.end_reason or None,
        "created_at": match.created_at,
        "updated_at": match.updated_at,
    }


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


def score_sheet(match: Match) -> list[dict[str, Any]]:
    rows = []
    for rnd in Round.objects.filter(match=match).exclude(status=RoundStatus.IN_PROGRESS):
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
