"""A player's public profile: what any signed-in player may see of another."""

from __future__ import annotations

from typing import Any

from accounts.avatars.selectors import avatar_json
from accounts.models import User
from games.selectors.stats import player_stats
from players.selectors.ratings import ratings_of


def profile_user(username: str) -> User | None:
    """The account behind a username, or None (unknown, or deleted: its data is gone)."""
    return User.objects.filter(username__iexact=username, deleted_at__isnull=True).first()


def profile_json(user: User) -> dict[str, Any]:
    """Public facts only: never the email, the language, or any match id (a private match
    stays private: the statistics are counts)."""
    return {
        "username": user.username,
        "display_name": user.display_name,
        "avatar": avatar_json(user),
        "ratings": ratings_of(user.pk),
        "stats": player_stats(user),
    }
