"""A waiting table's bots: ``POST /matches/{id}/bots`` puts one in an empty seat,
``DELETE /matches/{id}/bots/{seat}`` takes it out again.

Any human seated at the waiting table may do either (every seated player has the same say
while the table waits, as each may also leave); the fourth filled seat starts the match, as a
join does.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.authentication import request_user
from core import docs
from core.errors import NotFound
from core.parsing import refuse_body, validated_body
from core.serializers import StrictRequestSerializer
from games import selectors, services
from games.api import serializers as s
from games.api.common import MATCH_ID, etag_header, match_pk, view_response
from games.models import BotLevel, Match

SEAT = OpenApiParameter("seat", int, OpenApiParameter.PATH, description="Seat index (0-3).")


class BotAddRequestSerializer(StrictRequestSerializer):
    seat = serializers.IntegerField(min_value=0, max_value=3, help_text="An empty seat.")
    level = serializers.ChoiceField(choices=BotLevel.choices, help_text="The bot's level.")


BOT_ERRORS = (
    (403, "Not seated (`not_a_player`)."),
    (409, "`match_not_waiting`, or for adding `seat_taken`, for removing `seat_not_bot`."),
)


class _TableView(GenericAPIView):
    """Matches: create, list, lobby, join/leave/resign, the per-seat view, moves and records."""

    # The docstring above is the matches' own (as moderation's reports view does), and the
    # queryset makes the schema name the path parameter `id` as theirs.
    queryset = Match.objects.none()
    throttle_scope = "join"

    def _seated_view(self, match: Match) -> Response:
        return view_response(selectors.viewed_match_for(match.pk, request_user(self.request)))


class MatchBotsView(_TableView):
    serializer_class = BotAddRequestSerializer  # what OPTIONS describes

    @extend_schema(
        operation_id="matches_bots_create",
        parameters=[MATCH_ID, etag_header(200)],
        request=BotAddRequestSerializer,
        examples=[
            OpenApiExample(
                "A normal bot in seat 2",
                value={"seat": 2, "level": "normal"},
                request_only=True,
            ),
            OpenApiExample(
                "A hard bot in seat 3",
                value={"seat": 3, "level": "hard"},
                request_only=True,
            ),
        ],
        responses={
            200: OpenApiResponse(
                s.MatchViewSerializer,
                description="The match as you see it; active if that filled the fourth seat.",
            ),
            **docs.errors((400, "Invalid body (`invalid`)."), *BOT_ERRORS),
        },
        summary="Put a bot in an empty seat of a waiting match",
    )
    def post(self, request: Request, pk: str) -> Response:
        data = validated_body(BotAddRequestSerializer, request.data)
        match = services.match_bot_add(
            match_id=match_pk(pk),
            user=request_user(request),
            seat=data["seat"],
            level=data["level"],
        )
        return self._seated_view(match)


class MatchBotView(_TableView):
    serializer_class = s.MatchViewSerializer

    @extend_schema(
        operation_id="matches_bots_destroy",
        parameters=[MATCH_ID, SEAT, etag_header(200)],
        request=None,
        responses={
            200: OpenApiResponse(s.MatchViewSerializer, description="The match; the seat is free."),
            **docs.errors(
                (400, docs.NO_BODY),
                (
                    404,
                    "No such match, a private match you do not sit in, or no such seat "
                    "(`not_found`).",
                ),
                *BOT_ERRORS,
            ),
        },
        summary="Take the bot out of a seat of a waiting match",
    )
    def delete(self, request: Request, pk: str, seat: int) -> Response:
        refuse_body(request.data)
        if not 0 <= seat <= 3:
            raise NotFound(_("No such seat."))
        match = services.match_bot_remove(
            match_id=match_pk(pk), user=request_user(request), seat=seat
        )
        return self._seated_view(match)
