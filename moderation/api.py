"""``POST /matches/{id}/reports``: a player reports a seat of a match to the moderators.

Served under the matches' path (same path and operation id as when games served it), by
moderation's own view: games knows nothing of moderation.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.authentication import request_user
from core import docs
from core.parsing import validated_body
from core.serializers import StrictBooleanField, StrictCharField, StrictRequestSerializer
from games.api.common import MATCH_ID, match_pk
from games.models import Match
from moderation import services
from moderation.models import ReportReason, ReportStatus


class ReportRequestSerializer(StrictRequestSerializer):
    seat = serializers.IntegerField(min_value=0, max_value=3, help_text="The seat reported.")
    reason = serializers.ChoiceField(
        choices=ReportReason.choices,
        help_text="cheating (or collusion), abusive_name, stalling (or leaving), other.",
    )
    comment = StrictCharField(max_length=2000, required=False, allow_blank=True, default="")
    chat_message = serializers.IntegerField(
        min_value=1,
        max_value=2**62,
        required=False,
        allow_null=True,
        default=None,
        help_text="A quick-chat message id (`GET /matches/{id}/chat`) that seat sent, if the "
        "report is about it.",
    )
    avatar = StrictBooleanField(
        required=False,
        default=False,
        help_text="True: the report is about that player's uploaded picture (PUT /me/avatar); "
        "moderators see it as it was when reported, and may remove it. Built-in avatars "
        "cannot be reported.",
    )


# --- Responses (documentation of the selectors' dicts) -------------------------------------


class ReportViewSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    match = serializers.IntegerField()
    seat = serializers.IntegerField()
    reason = serializers.ChoiceField(choices=ReportReason.choices)
    comment = serializers.CharField(allow_blank=True)
    status = serializers.ChoiceField(choices=ReportStatus.choices)
    chat_message = serializers.IntegerField(allow_null=True)
    avatar = serializers.BooleanField(help_text="Whether the report is about their picture.")
    created_at = serializers.DateTimeField()


class MatchReportsView(GenericAPIView):
    """Matches: create, list, lobby, join/leave/resign, the per-seat view, moves and records."""

    # The docstring above is the matches' own (the schema shows it on every operation under
    # /matches), and the queryset makes the schema name the path parameter `id` as theirs.
    queryset = Match.objects.none()
    serializer_class = ReportRequestSerializer  # what OPTIONS describes
    throttle_scope = "reports"

    @extend_schema(
        operation_id="matches_reports_create",
        parameters=[MATCH_ID],
        request=ReportRequestSerializer,
        examples=[
            OpenApiExample(
                "Report stalling",
                value={"seat": 3, "reason": "stalling", "comment": "Lets the clock run out."},
                request_only=True,
            ),
            OpenApiExample(
                "Report an avatar",
                value={"seat": 2, "reason": "other", "avatar": True},
                request_only=True,
            ),
            OpenApiExample(
                "Report a chat message",
                value={"seat": 1, "reason": "other", "chat_message": 41},
                request_only=True,
            ),
        ],
        responses={
            201: ReportViewSerializer,
            **docs.errors(
                (400, "Invalid body (`invalid`)."),
                (
                    422,
                    "A seat with no player in it (`no_player_in_seat`), your own seat "
                    "(`cannot_report_self`), a `chat_message` that seat did not send at your "
                    "table (`chat_message_not_found`), or `avatar: true` for a player with no "
                    "uploaded picture (`no_picture_to_report`).",
                ),
                (409, "You already have an open report on that player here (`duplicate_report`)."),
            ),
        },
        summary="Report a seat of this match to the moderators",
    )
    def post(self, request: Request, pk: str) -> Response:
        data = validated_body(ReportRequestSerializer, request.data)
        report = services.report_create(
            reporter=request_user(request),
            match_id=match_pk(pk),
            seat=data["seat"],
            reason=data["reason"],
            comment=data["comment"],
            chat_message=data["chat_message"],
            avatar=data["avatar"],
        )
        body = {
            "id": report.pk,
            "match": report.match_id,
            "seat": report.seat,
            "reason": report.reason,
            "comment": report.comment,
            "status": report.status,
            "chat_message": report.chat_message_id,
            "avatar": bool(report.avatar_picture),
            "created_at": report.created_at,
        }
        return Response(body, status=status.HTTP_201_CREATED)
