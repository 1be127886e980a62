"""Ratings as other features need them (quick play's bands, profiles)."""

from __future__ import annotations

from collections.abc import Iterable

from players.models import Rating
from players.models.ratings import DEFAULT_MU, DEFAULT_SIGMA


def ordinals(user_ids: Iterable[int], ruleset: str) -> dict[int, float]:
    """Each user's ordinal (mu - 3 sigma) in ``ruleset``; the prior's for an unrated player."""
    ids = list(set(user_ids))
    found = dict(
        Rating.objects.filter(user_id__in=ids, ruleset=ruleset).values_list("user_id", "ordinal")
    )
    prior = DEFAULT_MU - 3 * DEFAULT_SIGMA
    return {uid: found.get(uid, prior) for uid in ids}
