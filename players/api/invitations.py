"""Invitations: ``POST /matches/{id}/invitations`` (a seated player invites by username),
``GET /me/invitations`` (your open ones), ``POST /invitations/{id}/accept`` and ``/decline``.

The invitee hears of it on ``/ws/v1/me`` (inbox event ``invitation``) and by push; both carry
the match id and version only, and the client reads the invitation here."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.authentication import request_user
from core import docs
from core.parsing import refuse_body, validated_body
from games import selectors as game_selectors
from games.api import serializers as game_serializers
from games.api.common import MATCH_ID, etag_header, match_pk, view_response
from games.api.schema_enums import RULESETS
from games.models import Match, Visibility
from players.api.common import (
    PAGE_ERRORS,
    PersonSerializer,
    SocialPage,
    UsernameRequestSerializer,
    username_example,
)
from players.errors import InvitationNotFound
from players.models import InvitationStatus
from players.selectors.social import invitation_json, invitations_pending_for
from players.services import invitations as services

INVITATION_ID = OpenApiParameter("id", int, OpenApiParameter.PATH, description="Invitation id.")


class InvitationSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    match_id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=InvitationStatus.choices)
    inviter = PersonSerializer()
    invitee = PersonSerializer()
    ruleset = serializers.ChoiceField(choices=RULESETS)
    target = serializers.IntegerField()
    turn_seconds = serializers.IntegerField()
    visibility = serializers.ChoiceField(choices=Visibility.choices)
    created_at = serializers.DateTimeField()
    responded_at = serializers.DateTimeField(allow_null=True)


_INVITATION = InvitationSerializer()
INVITATION_EXAMPLE = OpenApiExample(
    "An open invitation",
    value={
        "id": 7,
        "match_id": 42,
        "status": "pending",
        "inviter": {"username": "omar", "display_name": "عمر", "avatar": None},
        "invitee": {
            "username": "layla",
            "display_name": "Layla",
            "avatar": {"kind": "catalog", "id": "palm", "url": "/static/avatars/palm.png"},
        },
        "ruleset": "gamerules",
        "target": 152,
        "turn_seconds": 30,
        "visibility": "private",
        "created_at": "2026-03-01T12:00:00Z",
        "responded_at": None,
    },
    response_only=True,
)


def invitation_pk(value: str) -> int:
    try:
        pk = int(value)
    except (TypeError, ValueError):
        raise InvitationNotFound() from None
    if pk <= 0 or pk > 2**62:
        raise InvitationNotFound()
    return pk


class MatchInvitationsView(GenericAPIView):
    """Matches: create, list, lobby, join/leave/resign, the per-seat view, moves and records."""

    # The matches' docstring and queryset, as moderation's reports view under the same path.
    queryset = Match.objects.none()
    serializer_class = UsernameRequestSerializer
    throttle_scope = "join"

    @extend_schema(
        operation_id="matches_invitations_create",
        parameters=[MATCH_ID],
        request=UsernameRequestSerializer,
        examples=username_example("Invite layla"),
        responses={
            201: OpenApiResponse(InvitationSerializer, examples=[INVITATION_EXAMPLE]),
            **docs.errors(
                (400, "Invalid body (`invalid`)."),
                (422, "Your own username (`cannot_invite_self`)."),
                (403, "Not seated (`not_a_player`)."),
                (
                    404,
                    "No such match, a private match you do not sit in (`not_found`), or no "
                    "such player (`user_not_found`).",
                ),
                (
                    409,
                    "`match_not_waiting`, `match_full`, `invitee_seated`, `already_invited`; "
                    "as many open invitations to this table as free seats "
                    "(`table_invitations_full`); the player holds too many open invitations "
                    "(`invitee_invitations_full`); or a block, either way, between them and "
                    "you, a player seated here or one invited here (`user_blocked`, not "
                    "saying who blocked whom).",
                ),
                (
                    429,
                    "Too many requests (`throttled`), or too many invitations sent in the "
                    "last hour (`invitation_rate_limited`); see `Retry-After`.",
                ),
            ),
        },
        summary="Invite a player by username to this waiting match",
    )
    def post(self, request: Request, pk: str) -> Response:
        data = validated_body(UsernameRequestSerializer, request.data)
        invitation = services.invitation_create(
            inviter=request_user(request), match_id=match_pk(pk), username=data["username"]
        )
        body = _INVITATION.to_representation(invitation_json(invitation))
        return Response(body, status=status.HTTP_201_CREATED)


class MyInvitationsView(GenericAPIView):
    pagination_class = SocialPage
    serializer_class = InvitationSerializer
    throttle_scope = "reads"

    @extend_schema(
        operation_id="me_invitations_list",
        responses={
            200: OpenApiResponse(InvitationSerializer(many=True), examples=[INVITATION_EXAMPLE]),
            **PAGE_ERRORS,
        },
        summary="Your open invitations to matches that still wait for players",
    )
    def get(self, request: Request) -> Response:
        page = self.paginate_queryset(invitations_pending_for(request_user(request)))
        assert page is not None
        return self.get_paginated_response(
            [_INVITATION.to_representation(invitation_json(i)) for i in page]
        )


ANSWER_ERRORS = (
    (400, docs.NO_BODY),
    (404, "No such invitation, or not yours (`invitation_not_found`)."),
)


class InvitationAcceptView(GenericAPIView):
    serializer_class = game_serializers.MatchViewSerializer
    throttle_scope = "join"

    @extend_schema(
        operation_id="invitations_accept",
        parameters=[INVITATION_ID, etag_header(200)],
        request=None,
        responses={
            200: OpenApiResponse(
                game_serializers.MatchViewSerializer,
                description="You sit in the match now (active if you filled the fourth seat).",
            ),
            **docs.errors(
                *ANSWER_ERRORS,
                (
                    409,
                    "`invitation_not_pending`, `match_full` (the table filled and started), "
                    "`match_not_waiting` (it ended), `already_seated`, or a block, either way, "
                    "between you and a player seated there now (`user_blocked`).",
                ),
                base=docs.AUTH_ERRORS,
            ),
        },
        summary="Accept an invitation: take a free seat (no invite code needed)",
    )
    def post(self, request: Request, pk: str) -> Response:
        refuse_body(request.data)
        user = request_user(request)
        match = services.invitation_accept(user=user, invitation_id=invitation_pk(pk))
        return view_response(game_selectors.viewed_match_for(match.pk, user))


class InvitationDeclineView(GenericAPIView):
    serializer_class = InvitationSerializer
    throttle_scope = "join"

    @extend_schema(
        operation_id="invitations_decline",
        parameters=[INVITATION_ID],
        request=None,
        responses={
            200: InvitationSerializer,
            **docs.errors(
                *ANSWER_ERRORS,
                (409, "Answered or withdrawn already (`invitation_not_pending`)."),
                base=docs.AUTH_ERRORS,
            ),
        },
        summary="Decline an invitation",
    )
    def post(self, request: Request, pk: str) -> Response:
        refuse_body(request.data)
        invitation = services.invitation_decline(
            user=request_user(request), invitation_id=invitation_pk(pk)
        )
        return Response(_INVITATION.to_representation(invitation_json(invitation)))
