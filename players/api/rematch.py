"""``POST /matches/{id}/rematch`` (propose, or accept the proposal) and ``GET`` (who accepted,
until when, and the new match once every human has)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.authentication import request_user
from core import docs
from core.parsing import refuse_body
from games.api.common import MATCH_ID, match_pk
from games.models import Match
from players.selectors.social import human_seats, rematch_json, rematch_of
from players.services import rematch as services

STATUSES = [
    ("pending", "pending"),
    ("started", "started"),
    ("expired", "expired"),
    ("cancelled", "cancelled"),
]


class RematchSerializer(serializers.Serializer):
    match_id = serializers.IntegerField(help_text="The finished match.")
    status = serializers.ChoiceField(
        choices=STATUSES,
        help_text="pending (waiting for accepts), started (`new_match_id` set), expired, "
        "cancelled (the table cannot play together again; `expires_at` is when).",
    )
    proposed_by_seat = serializers.IntegerField()
    accepted_seats = serializers.ListField(child=serializers.IntegerField())
    waiting_for_seats = serializers.ListField(
        child=serializers.IntegerField(), help_text="Human seats that have not accepted yet."
    )
    expires_at = serializers.DateTimeField()
    new_match_id = serializers.IntegerField(
        allow_null=True, help_text="The new match, once every human seat has accepted."
    )


_REMATCH = RematchSerializer()
PENDING = OpenApiExample(
    "Waiting for one player",
    value={
        "match_id": 42,
        "status": "pending",
        "proposed_by_seat": 0,
        "accepted_seats": [0, 2],
        "waiting_for_seats": [1],
        "expires_at": "2026-03-01T12:10:00Z",
        "new_match_id": None,
    },
    response_only=True,
)
STARTED = OpenApiExample(
    "Started",
    value={
        "match_id": 42,
        "status": "started",
        "proposed_by_seat": 0,
        "accepted_seats": [0, 1, 2, 3],
        "waiting_for_seats": [],
        "expires_at": "2026-03-01T12:10:00Z",
        "new_match_id": 43,
    },
    response_only=True,
)


class MatchRematchView(GenericAPIView):
    """Matches: create, list, lobby, join/leave/resign, the per-seat view, moves and records."""

    # The matches' docstring and queryset, as moderation's reports view under the same path.
    queryset = Match.objects.none()
    serializer_class = RematchSerializer

    @property
    def throttle_scope(self) -> str:  # read by ScopedRateThrottle
        return "reads" if self.request.method == "GET" else "join"

    @extend_schema(
        operation_id="matches_rematch_retrieve",
        parameters=[MATCH_ID],
        responses={
            200: OpenApiResponse(RematchSerializer, examples=[PENDING, STARTED]),
            **docs.errors(
                (403, "Not seated (`not_a_player`)."),
                (
                    404,
                    "No such match, a private match you do not sit in (`not_found`), or no "
                    "rematch proposed (`rematch_not_found`).",
                ),
            ),
        },
        summary="The rematch proposal: who accepted, until when, the new match",
    )
    def get(self, request: Request, pk: str) -> Response:
        rematch, match = rematch_of(user=request_user(request), match_id=match_pk(pk))
        return Response(_REMATCH.to_representation(rematch_json(rematch, human_seats(match))))

    @extend_schema(
        operation_id="matches_rematch_create",
        parameters=[MATCH_ID],
        request=None,
        responses={
            201: OpenApiResponse(
                RematchSerializer, description="Proposed (your seat accepted).", examples=[PENDING]
            ),
            200: OpenApiResponse(
                RematchSerializer,
                description="Accepted; `new_match_id` is set once every human has.",
                examples=[STARTED],
            ),
            **docs.errors(
                (400, docs.NO_BODY),
                (403, "Not seated (`not_a_player`)."),
                (
                    409,
                    "The match has not finished (`match_not_finished`), the proposal expired "
                    "(`rematch_expired`), the rematch started already (`rematch_started`), the "
                    "proposal was called off (`rematch_cancelled`: a player of the table can "
                    "no longer play, account deleted, suspended or banned, or two who accepted "
                    "block each other now), none can be made as a player of the table can no "
                    "longer play (`rematch_unavailable`), or a block between you and another "
                    "player of the table, either way (`user_blocked`).",
                ),
            ),
        },
        summary="Propose a rematch of a finished match, or accept the proposal",
    )
    def post(self, request: Request, pk: str) -> Response:
        refuse_body(request.data)
        user = request_user(request)
        rematch, created = services.rematch_accept(user=user, match_id=match_pk(pk))
        rematch, match = rematch_of(user=user, match_id=rematch.match_id)
        body = _REMATCH.to_representation(rematch_json(rematch, human_seats(match)))
        return Response(body, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)
