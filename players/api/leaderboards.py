"""``GET /leaderboards/{ruleset}?period=all|week``: the ranked players of a ruleset, a page at
a time, with the caller's own place.

Anyone may read a leaderboard, signed in or not: it is the public scoreboard the app shows
before sign-in (``me`` is null then). A token that is sent must be good: a revoked one is a
401 like everywhere else.
"""

from __future__ import annotations

import base64
import json
import math
from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param
from rest_framework.views import APIView

from accounts.api.serializers import avatar_field
from accounts.models import User
from core import docs
from core.errors import InvalidField
from games.api.pagination import CURSOR, PAGE_SIZE, page_size_from
from games.api.schema_enums import RULESETS
from players.errors import UnknownRuleset
from players.selectors import leaderboards as boards

INVALID_CURSOR = "Invalid cursor"
_MAX_CURSOR_LENGTH = 128


class LeaderboardEntrySerializer(serializers.Serializer):
    rank = serializers.IntegerField(
        help_text="1 for the top; equal ratings are ordered by account age, so ranks are unique."
    )
    username = serializers.CharField()
    display_name = serializers.CharField()
    avatar = avatar_field()
    rating = serializers.FloatField(
        allow_null=True,
        help_text="The ordinal (mu - 3 sigma) to one decimal; null only for a weekly row "
        "without a rating (never in practice).",
    )
    rated_matches = serializers.IntegerField(help_text="Rated matches in this ruleset, ever.")
    provisional = serializers.BooleanField(help_text="Fewer than 10 rated matches.")
    gained = serializers.FloatField(
        allow_null=True,
        help_text="Weekly board: the ordinal gained this ISO week (may be negative), to one "
        "decimal. Null on the all-time board.",
    )
    matches_this_week = serializers.IntegerField(
        allow_null=True, help_text="Weekly board: rated matches this week. Null on all-time."
    )


class LeaderboardSerializer(serializers.Serializer):
    ruleset = serializers.ChoiceField(choices=RULESETS)
    period = serializers.ChoiceField(choices=[("all", "all"), ("week", "week")])
    week_start = serializers.DateField(
        allow_null=True, help_text="Weekly board: the Monday (UTC) the week began. Else null."
    )
    me = LeaderboardEntrySerializer(
        allow_null=True,
        help_text="Your own place, or null: anonymous, or not on this board (unrated in this "
        "ruleset, or no rated match this week).",
    )
    next = serializers.URLField(allow_null=True, help_text="The next page, or null.")
    results = LeaderboardEntrySerializer(many=True)


_ROW = {
    "rank": 1,
    "username": "layla",
    "display_name": "ليلى",
    "avatar": {"kind": "catalog", "id": "palm", "url": "/static/avatars/palm.png"},
    "rating": 31.4,
    "rated_matches": 57,
    "provisional": False,
    "gained": None,
    "matches_this_week": None,
}
EXAMPLE = OpenApiExample(
    "All-time board",
    value={
        "ruleset": "gamerules",
        "period": "all",
        "week_start": None,
        "me": {**_ROW, "rank": 1204, "username": "omar", "display_name": "Omar", "rating": 12.9},
        "next": "https://baloot.example/api/v1/leaderboards/gamerules?cursor=WzMxLjQsN10",
        "results": [_ROW],
    },
    response_only=True,
)

PERIOD = OpenApiParameter(
    "period",
    {"type": "string", "enum": list(boards.PERIODS)},
    description="`all` (by rating, the default) or `week` (by rating gained since Monday "
    "00:00 UTC, among players with a rated match this week).",
)
RULESET = OpenApiParameter(
    "ruleset",
    {"type": "string", "enum": RULESETS},
    OpenApiParameter.PATH,
    description="A ruleset name; any other is `404 unknown_ruleset`.",
)


def _cursor_decode(raw: str | None) -> tuple[float, int] | None:
    if raw is None:
        return None
    try:
        if len(raw) > _MAX_CURSOR_LENGTH:
            raise ValueError("too long")
        text = base64.urlsafe_b64decode(raw.encode("ascii") + b"=" * (-len(raw) % 4))
        value, user_id = json.loads(text)
        if type(value) not in (int, float) or not math.isfinite(value):
            raise ValueError("not a rating")
        if type(user_id) is not int or not 0 < user_id < 2**63:
            raise ValueError("not an id")
    except (ValueError, TypeError):  # binascii.Error and UnicodeError are ValueErrors
        raise NotFound(INVALID_CURSOR) from None
    return float(value), user_id


def _cursor_encode(value: float, user_id: int) -> str:
    raw = base64.urlsafe_b64encode(json.dumps([value, user_id]).encode())
    return raw.decode("ascii").rstrip("=")


class LeaderboardView(APIView):
    permission_classes = [AllowAny]
    throttle_scope = "reads"

    @extend_schema(
        operation_id="leaderboards_retrieve",
        parameters=[RULESET, PERIOD, CURSOR, PAGE_SIZE],
        responses={
            200: OpenApiResponse(LeaderboardSerializer, examples=[EXAMPLE]),
            **docs.errors(
                (400, "Bad `period` or `page_size` (`invalid`)."),
                (
                    404,
                    "No such ruleset (`unknown_ruleset`), or a `cursor` that did not come "
                    "from a `next` link (`not_found`).",
                ),
                base=docs.only(docs.AUTH_ERRORS, 401, 403, 429, 503),
            ),
        },
        summary="A ruleset's leaderboard, all-time or this week, with your own rank",
        description="Open to anonymous callers (`me` is null). A sent token must be valid.",
    )
    def get(self, request: Request, ruleset: str) -> Response:
        if not boards.ruleset_exists(ruleset):
            raise UnknownRuleset()
        period = request.query_params.get("period", "all")
        if period not in boards.PERIODS:
            raise InvalidField("period", str(_("Expected `all` or `week`.")))
        size = page_size_from(request)
        after = _cursor_decode(request.query_params.get("cursor"))
        board = boards.board_for(ruleset, period)
        rows = boards.listed(board)
        if after is not None:
            rows = rows.filter(board.after(*after))
        found = list(rows[: size + 1])
        page = found[:size]
        next_link = None
        if len(found) > size:
            last = page[-1]
            next_link = replace_query_param(
                request.build_absolute_uri(),
                "cursor",
                _cursor_encode(getattr(last, board.value_field), last.user_id),
            )
        user = request.user
        me = boards.caller_entry(board, user) if isinstance(user, User) else None
        body: dict[str, Any] = {
            "ruleset": ruleset,
            "period": period,
            "week_start": board.week,
            "me": me,
            "next": next_link,
            "results": boards.page_entries(board, page),
        }
        return Response(LeaderboardSerializer(body).data)
