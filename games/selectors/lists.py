"""Lists of matches: the caller's, the lobby, the inbox in its order, and one row of each."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.db.models import Case, F, IntegerField, Q, QuerySet, Value, When
from django.db.models.functions import Coalesce

from accounts.models import User
from games.models import Match, MatchStatus, Visibility
from games.selectors.seats import seat_json


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
