"""What the players' endpoints share: a player as others see them, a username body, the
errors of a username that names no one, and the list page."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiParameter
from rest_framework import serializers

from accounts.api.serializers import avatar_field
from core import docs
from core.serializers import StrictCharField, StrictRequestSerializer
from games.api.pagination import NewestFirstCursor
from players import presence

USERNAME = OpenApiParameter(
    "username", str, OpenApiParameter.PATH, description="The other player's username."
)


class PersonSerializer(serializers.Serializer):
    username = serializers.CharField()
    display_name = serializers.CharField()
    avatar = avatar_field()


class ListedPlayerSerializer(serializers.Serializer):
    username = serializers.CharField()
    display_name = serializers.CharField()
    avatar = avatar_field()
    since = serializers.DateTimeField(help_text="When you followed or blocked them.")


class FriendSerializer(ListedPlayerSerializer):
    presence = serializers.ChoiceField(
        choices=presence.STATES,
        help_text="`online`: a stream of theirs is open; `in_match`: they are seated at the "
        "public match `match_id` with its stream open (a private match shows `online`); "
        "`offline`: no stream open, or they hide their presence (`show_presence`), or a block "
        "stands between you.",
    )
    match_id = serializers.IntegerField(
        allow_null=True, help_text="The public match they play, for `in_match`; else null."
    )
    last_seen = serializers.DateTimeField(
        allow_null=True,
        help_text="Now while they are online; when their last stream closed while offline; "
        "null if never seen, or hidden.",
    )


class UsernameRequestSerializer(StrictRequestSerializer):
    # Looked up as sent: "layla\n" is no one (no trimming, as for register).
    username = StrictCharField(
        max_length=150, trim_whitespace=False, help_text="The other player's username."
    )


def username_example(name: str) -> list[OpenApiExample]:
    return [OpenApiExample(name, value={"username": "layla"}, request_only=True)]


LISTED_EXAMPLE = {
    "username": "layla",
    "display_name": "ليلى",
    "avatar": {"kind": "catalog", "id": "palm", "url": "/static/avatars/palm.png"},
    "since": "2026-03-01T12:00:00Z",
}
PAGE_ERRORS = docs.errors(
    (400, "Bad `page_size` (`invalid`)."),
    (404, "A `cursor` that did not come from a `next` link (`not_found`)."),
    base=docs.AUTH_ERRORS,
)
UNKNOWN_USER = "No live account has that username (`user_not_found`)."


class SocialPage(NewestFirstCursor):
    """Newest first, by when the row was made."""


_LISTED = ListedPlayerSerializer()
_FRIEND = FriendSerializer()


def listed(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [_LISTED.to_representation(row) for row in rows]


def friends_listed(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [_FRIEND.to_representation(row) for row in rows]
