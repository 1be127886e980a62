"""Reads about players: profile statistics."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, F, Q

from accounts.models import Sanction, User
from games.models import Actor, EndReason, MatchStatus, Move, ReportStatus, Seat


def user_json(user: User) -> dict[str, Any]:
    return {"id": user.pk, "username": user.username, "display_name": user.display_name}


def sanction_active_for(user: User) -> Sanction | None:
    """The sanction barring ``user`` now, if any: a ban first, else the longest suspension."""
    return (
        Sanction.objects.active()
        .filter(user=user)
        .order_by(F("ends_at").desc(nulls_first=True))
        .first()
    )


def player_stats(user: User, *, moderation: bool = False) -> dict[str, int]:
    """A player's statistics. ``moderation=True`` adds what moderators rely on (reports
    received and upheld); the player's own profile (``/me``) leaves those out.
    """
    seats = Seat.objects.filter(user=user, match__started_at__isnull=False)
    finished = Q(match__status=MatchStatus.FINISHED)
    won = finished & Q(match__winner_team=F("index") % 2)
    counts = seats.aggregate(
        played=Count("pk"),
        finished=Count("pk", filter=finished),
        won=Count("pk", filter=won),
        # A resignation is credited to the resigning team; we don't know which partner
        # resigned from the match row alone, so count it for the losing side's seats.
        resigned=Count("pk", filter=finished & Q(match__end_reason=EndReason.RESIGNED) & ~won),
        abandoned=Count("pk", filter=Q(away=True) | Q(match__end_reason=EndReason.ABANDONED)),
    )
    timeouts = Move.objects.filter(
        actor=Actor.TIMEOUT,
        match__seats__user=user,
        match__seats__index=F("seat"),
    ).count()
    stats = {
        "played": counts["played"],
        "finished": counts["finished"],
        "won": counts["won"],
        "lost": counts["finished"] - counts["won"],
        "resigned": counts["resigned"],
        "abandoned": counts["abandoned"],
        "timeouts": timeouts,
    }
    if moderation:
        reports = user.reports_received.aggregate(
            received=Count("pk"), upheld=Count("pk", filter=Q(status=ReportStatus.UPHELD))
        )
        stats["reports_received"] = reports["received"]
        stats["reports_upheld"] = reports["upheld"]
    return stats
