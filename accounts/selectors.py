"""Reads about accounts: the public view of a user, and the standing authentication checks."""

from __future__ import annotations

from typing import Any

from django.db.models import F

from accounts.avatars.selectors import avatar_json
from accounts.models import Sanction, User


def user_json(user: User) -> dict[str, Any]:
    return {
        "id": user.pk,
        "username": user.username,
        "display_name": user.display_name,
        "avatar": avatar_json(user),
    }


def sanction_active_for(user: User) -> Sanction | None:
    """The sanction barring ``user`` now, if any: a ban first, else the longest suspension."""
    return (
        Sanction.objects.active()
        .filter(user=user)
        .order_by(F("ends_at").desc(nulls_first=True))
        .first()
    )
