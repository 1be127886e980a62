"""A player's record: matches played, won, resigned, abandoned, and turns timed out."""

from __future__ import annotations

from django.db.models import Count, F, Q

from accounts.models import User
from games.models import Actor, EndReason, MatchStatus, Move, Seat


def player_stats(user: User) -> dict[str, int]:
    """A player's record over the matches they sat in (``/me`` and the admin's user page;
    moderation adds reports received and upheld there)."""
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
    return stats
