"""Ratings as other features need them (quick play's bands, profiles)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta
from typing import Any

from players.models import Rating
from players.models.ratings import DEFAULT_MU, DEFAULT_SIGMA, PROVISIONAL_BELOW


def ordinals(user_ids: Iterable[int], ruleset: str) -> dict[int, float]:
    """Each user's ordinal (mu - 3 sigma) in ``ruleset``; the prior's for an unrated player."""
    ids = list(set(user_ids))
    found = dict(
        Rating.objects.filter(user_id__in=ids, ruleset=ruleset).values_list("user_id", "ordinal")
    )
    prior = DEFAULT_MU - 3 * DEFAULT_SIGMA
    return {uid: found.get(uid, prior) for uid in ids}


def week_of(moment: datetime) -> date:
    """The Monday (UTC) that starts the ISO week of ``moment``."""
    day = moment.astimezone(UTC).date()
    return day - timedelta(days=day.weekday())


def ratings_of(user_id: int) -> list[dict[str, Any]]:
    """A player's rating in each ruleset they have played rated matches in."""
    return [
        {
            "ruleset": r.ruleset,
            "rating": round(r.ordinal, 1),
            "mu": round(r.mu, 3),
            "sigma": round(r.sigma, 3),
            "rated_matches": r.rated_matches,
            "provisional": r.rated_matches < PROVISIONAL_BELOW,
        }
        for r in Rating.objects.filter(user_id=user_id, rated_matches__gt=0).order_by("ruleset")
    ]
