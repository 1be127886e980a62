"""Presence as another player may see it: in ``GET /me/friends`` and in the ``presence``
events of ``/ws/v1/me`` (players.presence has who is online). A player who hides it
(``show_presence`` false) and a player on either side of a block show ``offline`` with no
``last_seen``, and send no events."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from accounts.models import User
from core import clock
from players import presence
from players.models import Follow
from players.selectors.blocks import blocked_pairs

HIDDEN: dict[str, Any] = {"presence": presence.OFFLINE, "match_id": None, "last_seen": None}


def presence_json(user: User, seen: presence.Presence) -> dict[str, Any]:
    """``user``'s presence as its followers see it (hiding left to the caller)."""
    if seen.state == presence.OFFLINE:
        return {"presence": presence.OFFLINE, "match_id": None, "last_seen": user.last_seen_at}
    # Online: seen now.
    return {"presence": seen.state, "match_id": seen.match_id, "last_seen": clock.now()}


def _blocked_with(user_id: int, others: Iterable[int]) -> set[int]:
    """Those of ``others`` on either side of a block with ``user_id`` (one query)."""
    pairs = blocked_pairs([user_id, *others])
    return {other for pair in pairs if user_id in pair for other in pair} - {user_id}


def presence_for(viewer_id: int, users: Iterable[User]) -> dict[int, dict[str, Any]]:
    """The presence of each of ``users`` as ``viewer_id`` may see it: one cache read and one
    query of blocks for all of them."""
    users = list(users)
    blocked = _blocked_with(viewer_id, (u.pk for u in users))
    shown = [u for u in users if u.show_presence and u.pk not in blocked]
    seen = presence.presence_of(u.pk for u in shown)
    out = {u.pk: dict(HIDDEN) for u in users}
    for user in shown:
        out[user.pk] = presence_json(user, seen[user.pk])
    return out


def presence_audience(user_id: int) -> tuple[User, list[int]] | None:
    """Who hears ``user_id``'s presence change: the live accounts that follow them, less any
    on either side of a block with them. None when nobody may (the user hides it, or is gone)."""
    user = User.objects.filter(pk=user_id, deleted_at__isnull=True, show_presence=True).first()
    if user is None:
        return None
    followers = list(
        Follow.objects.filter(
            followed_id=user_id, follower__deleted_at__isnull=True, follower__is_active=True
        ).values_list("follower_id", flat=True)
    )
    apart = _blocked_with(user_id, followers)
    return user, [f for f in followers if f not in apart]


def presence_event(user_id: int, seen: presence.Presence) -> tuple[list[int], dict[str, Any]]:
    """The ``presence`` message of ``user_id``'s change to ``seen`` and the users it goes to
    (none when the user hides their presence)."""
    found = presence_audience(user_id)
    if found is None:
        return [], {}
    user, followers = found
    body = {"type": "presence", "username": user.username, **presence_json(user, seen)}
    if body["last_seen"] is not None:  # a channel layer carries plain values
        body["last_seen"] = body["last_seen"].isoformat().replace("+00:00", "Z")
    return followers, body
