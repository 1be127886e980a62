"""``GET /players/{username}``: another player's public profile."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.api.serializers import avatar_field
from core import docs
from games.api.schema_enums import RULESETS
from games.api.serializers.me import PlayerStatsSerializer
from players.errors import UserNotFound
from players.selectors import profiles


class PlayerRatingSerializer(serializers.Serializer):
    ruleset = serializers.ChoiceField(choices=RULESETS)
    rating = serializers.FloatField(help_text="The ordinal (mu - 3 sigma), to one decimal.")
    mu = serializers.FloatField(help_text="openskill's estimate of skill.")
    sigma = serializers.FloatField(help_text="openskill's uncertainty about it.")
    rated_matches = serializers.IntegerField()
    provisional = serializers.BooleanField(help_text="Fewer than 10 rated matches.")


class PlayerProfileSerializer(serializers.Serializer):
    username = serializers.CharField()
    display_name = serializers.CharField()
    avatar = avatar_field()
    ratings = PlayerRatingSerializer(
        many=True, help_text="One per ruleset with at least one rated match."
    )
    stats = PlayerStatsSerializer()


EXAMPLE = OpenApiExample(
    "A player",
    value={
        "username": "layla",
        "display_name": "ليلى",
        "avatar": {"kind": "catalog", "id": "palm", "url": "/static/avatars/palm.png"},
        "ratings": [
            {
                "ruleset": "gamerules",
                "rating": 31.4,
                "mu": 36.2,
                "sigma": 1.6,
                "rated_matches": 57,
                "provisional": False,
            }
        ],
        "stats": {
            "played": 80,
            "finished": 75,
            "won": 41,
            "lost": 34,
            "resigned": 3,
            "abandoned": 1,
            "timeouts": 6,
        },
    },
    response_only=True,
)


class PlayerProfileView(APIView):
    throttle_scope = "reads"

    @extend_schema(
        operation_id="players_retrieve",
        parameters=[OpenApiParameter("username", str, OpenApiParameter.PATH)],
        responses={
            200: OpenApiResponse(PlayerProfileSerializer, examples=[EXAMPLE]),
            **docs.errors(
                (404, "No such player, or a deleted account (`user_not_found`)."),
                base=docs.AUTH_ERRORS,
            ),
        },
        summary="A player's public profile: name, ratings, statistics",
    )
    def get(self, request: Request, username: str) -> Response:
        user = profiles.profile_user(username)
        if user is None:
            raise UserNotFound()
        return Response(PlayerProfileSerializer(profiles.profile_json(user)).data)
