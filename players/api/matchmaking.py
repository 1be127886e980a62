"""Quick play: ``/matchmaking``, the caller's request for a table (``players.services.matchmaking``
explains how tables are made)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
)
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.authentication import request_user
from core import docs
from core.parsing import refuse_body, validated_body
from core.serializers import StrictRequestSerializer
from games import engine
from games.api.schema_enums import RULESETS
from players.errors import NoTicket
from players.models import TicketStatus
from players.selectors.matchmaking import ticket_data, ticket_latest
from players.services import matchmaking as services

# Quick play is live play, and a few speeds keep the queues full: 15 s, 30 s or a minute per
# move, or a day (correspondence).
TURN_SECONDS = (15, 30, 60, 86400)
# TurnSecondsEnum (settings.ENUM_NAME_OVERRIDES) in drf-spectacular's (value, label) form.
TURN_SECONDS_ENUM = [(seconds, seconds) for seconds in TURN_SECONDS]
DEFAULT_TURN_SECONDS = 30
BOTS_AFTER_MAX = 3600


@extend_schema_field({"type": "integer", "enum": list(TURN_SECONDS)})
class TurnSecondsField(serializers.IntegerField):
    """One of TURN_SECONDS, as an integer (not "30")."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int) or data not in TURN_SECONDS:
            choices = ", ".join(map(str, TURN_SECONDS))
            raise serializers.ValidationError(
                _("One of %(choices)s.") % {"choices": choices}, code="invalid_choice"
            )
        return data


class TicketRequestSerializer(StrictRequestSerializer):
    ruleset = serializers.ChoiceField(choices=RULESETS, default=engine.GAMERULES.name)
    turn_seconds = TurnSecondsField(
        default=DEFAULT_TURN_SECONDS, help_text="Seconds per move: 15, 30, 60 or 86400 (a day)."
    )
    bots_after_seconds = serializers.IntegerField(
        min_value=0,
        max_value=BOTS_AFTER_MAX,
        allow_null=True,
        default=None,
        help_text=(
            "After this many seconds of waiting, bots (level normal) fill the seats no player "
            "fills; null: players only, however long it takes. 0: bots at once if nobody "
            "else is waiting."
        ),
    )


class TicketSerializer(serializers.Serializer):
    status = serializers.ChoiceField(
        choices=TicketStatus.choices,
        help_text="waiting; placed (a match started: `match_id`); cancelled.",
    )
    ruleset = serializers.ChoiceField(choices=RULESETS)
    turn_seconds = TurnSecondsField()
    bots_after_seconds = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()
    waited_seconds = serializers.IntegerField(
        help_text="How long the ticket has waited (until placed or cancelled, once it is)."
    )
    band = serializers.FloatField(
        help_text=(
            "How far (in rating ordinal points) the players of your table may be from you: "
            "3, plus 1 per 5 seconds waited, at most 30."
        )
    )
    match_id = serializers.IntegerField(allow_null=True, help_text="Once placed: your match.")
    placed_at = serializers.DateTimeField(allow_null=True)
    cancelled_at = serializers.DateTimeField(allow_null=True)


_TICKET = TicketSerializer()

_WAITING = {
    "status": "waiting",
    "ruleset": "gamerules",
    "turn_seconds": 30,
    "bots_after_seconds": 60,
    "created_at": "2026-03-01T12:00:00Z",
    "waited_seconds": 10,
    "band": 5.0,
    "match_id": None,
    "placed_at": None,
    "cancelled_at": None,
}
_PLACED = {
    **_WAITING,
    "status": "placed",
    "waited_seconds": 12,
    "band": 5.4,
    "match_id": 42,
    "placed_at": "2026-03-01T12:00:12Z",
}
WAITING_EXAMPLE = OpenApiExample("Waiting", value=_WAITING, response_only=True)
PLACED_EXAMPLE = OpenApiExample("Placed", value=_PLACED, response_only=True)


def _render(ticket: Any) -> dict[str, Any]:
    return _TICKET.to_representation(ticket_data(ticket))


class MatchmakingView(APIView):
    """Quick play: ask for a table, see where your request stands, cancel it."""

    serializer_class = TicketRequestSerializer  # what OPTIONS describes

    @property
    def throttle_scope(self) -> str:
        # Reading the ticket is a poll; asking and cancelling count as joining a table.
        return "reads" if self.request.method == "GET" else "join"

    @extend_schema(
        operation_id="matchmaking_create",
        request=TicketRequestSerializer,
        examples=[
            OpenApiExample(
                "Live, bots after a minute",
                value={"ruleset": "gamerules", "turn_seconds": 30, "bots_after_seconds": 60},
                request_only=True,
            ),
            OpenApiExample("Defaults", value={}, request_only=True),
        ],
        responses={
            201: OpenApiResponse(TicketSerializer, examples=[WAITING_EXAMPLE, PLACED_EXAMPLE]),
            **docs.errors(
                (400, "Invalid body: an unknown ruleset, a speed not offered (`invalid`)."),
                (409, "You are already waiting for a table (`already_queued`)."),
                base=docs.AUTH_ERRORS,
            ),
        },
        summary="Ask for a table (quick play); placed at once if a table can be made",
    )
    def post(self, request: Request) -> Response:
        data = validated_body(TicketRequestSerializer, request.data)
        ticket = services.ticket_request(
            user=request_user(request),
            ruleset=data["ruleset"],
            turn_seconds=data["turn_seconds"],
            bots_after_seconds=data["bots_after_seconds"],
        )
        return Response(_render(ticket), status=status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="matchmaking_retrieve",
        responses={
            200: OpenApiResponse(TicketSerializer, examples=[WAITING_EXAMPLE, PLACED_EXAMPLE]),
            **docs.errors(
                (404, "You have never asked for a table (`no_ticket`)."),
                base=docs.AUTH_ERRORS,
            ),
        },
        summary="Your latest request for a table, and its match once placed",
    )
    def get(self, request: Request) -> Response:
        ticket = ticket_latest(request_user(request))
        if ticket is None:
            raise NoTicket()
        return Response(_render(ticket))

    @extend_schema(
        operation_id="matchmaking_destroy",
        request=None,
        responses={
            204: None,
            **docs.errors(
                (400, docs.NO_BODY),
                (404, "You have never asked for a table (`no_ticket`)."),
                (409, "You have been seated; resign the match instead (`ticket_placed`)."),
                base=docs.AUTH_ERRORS,
            ),
        },
        summary="Cancel your request for a table",
    )
    def delete(self, request: Request) -> Response:
        refuse_body(request.data)
        services.ticket_cancel(user=request_user(request))
        return Response(status=status.HTTP_204_NO_CONTENT)
