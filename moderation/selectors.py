"""Reads for moderators: a player's record with the reports they received."""

from __future__ import annotations

from django.db.models import Count, Q

from accounts.models import User
from games.selectors.stats import player_stats as game_stats
from moderation.models import Report, ReportStatus


def player_stats(user: User, *, moderation: bool = False) -> dict[str, int]:
    """A player's statistics; ``moderation=True`` adds what moderators rely on (reports
    received and upheld), which the player's own profile (``/me``) leaves out."""
    stats = game_stats(user)
    if moderation:
        reports = Report.objects.filter(reported=user).aggregate(
            received=Count("pk"), upheld=Count("pk", filter=Q(status=ReportStatus.UPHELD))
        )
        stats["reports_received"] = reports["received"]
        stats["reports_upheld"] = reports["upheld"]
    return stats
