"""``GET``/``POST /me/friends`` and ``DELETE /me/friends/{username}``: whom you follow."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.authentication import request_user
from core import docs
from core.parsing import refuse_body, validated_body
from players.api.common import (
    LISTED_EXAMPLE,
    PAGE_ERRORS,
    UNKNOWN_USER,
    USERNAME,
    FriendSerializer,
    ListedPlayerSerializer,
    SocialPage,
    UsernameRequestSerializer,
    friends_listed,
    listed,
    username_example,
)
from players.selectors.presence import presence_for
from players.selectors.social import follow_json, friends_of
from players.services import friends as services

FRIEND = OpenApiExample("A friend", value=LISTED_EXAMPLE, response_only=True)
FRIENDS = OpenApiExample(
    "A friend at a public match",
    value={
        **LISTED_EXAMPLE,
        "presence": "in_match",
        "match_id": 42,
        "last_seen": "2026-03-02T18:30:00Z",
    },
    response_only=True,
)


class FriendsView(GenericAPIView):
    pagination_class = SocialPage
    serializer_class = FriendSerializer

    @property
    def throttle_scope(self) -> str:  # read by ScopedRateThrottle
        return "reads" if self.request.method == "GET" else "join"

    @extend_schema(
        operation_id="me_friends_list",
        responses={
            200: OpenApiResponse(FriendSerializer(many=True), examples=[FRIENDS]),
            **PAGE_ERRORS,
        },
        summary="The players you follow, newest first, with their presence",
        description="Each friend's `presence` comes from their open streams: `online`, "
        "`in_match` (seated at a public match, `match_id`; a private match shows `online`) or "
        "`offline`, with `last_seen`. A friend who hides it (`PATCH /me` with "
        "`show_presence: false`) shows `offline` and `last_seen: null`. Changes come as "
        "`presence` messages on `/ws/v1/me`.",
    )
    def get(self, request: Request) -> Response:
        user = request_user(request)
        page = self.paginate_queryset(friends_of(user))
        assert page is not None
        seen = presence_for(user.pk, [f.followed for f in page])
        rows = [{**follow_json(f), **seen[f.followed_id]} for f in page]
        return self.get_paginated_response(friends_listed(rows))

    @extend_schema(
        operation_id="me_friends_create",
        request=UsernameRequestSerializer,
        examples=username_example("Follow layla"),
        responses={
            201: OpenApiResponse(
                ListedPlayerSerializer, description="Now followed.", examples=[FRIEND]
            ),
            200: OpenApiResponse(
                ListedPlayerSerializer, description="Followed already; nothing changed."
            ),
            **docs.errors(
                (400, "Invalid body (`invalid`)."),
                (422, "Your own username (`cannot_follow_self`)."),
                (404, UNKNOWN_USER),
                (409, "A block between you, either way (`user_blocked`)."),
                base=docs.AUTH_ERRORS,
            ),
        },
        summary="Follow a player by username",
    )
    def post(self, request: Request) -> Response:
        data = validated_body(UsernameRequestSerializer, request.data)
        follow, created = services.follow_add(user=request_user(request), username=data["username"])
        body = listed([follow_json(follow)])[0]
        return Response(body, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class FriendView(GenericAPIView):
    throttle_scope = "join"
    serializer_class = ListedPlayerSerializer

    @extend_schema(
        operation_id="me_friends_destroy",
        parameters=[USERNAME],
        request=None,
        responses={
            204: OpenApiResponse(description="No longer followed."),
            **docs.errors(
                (400, docs.NO_BODY),
                (404, "You do not follow that player (`not_following`)."),
                base=docs.AUTH_ERRORS,
            ),
        },
        summary="Stop following a player",
    )
    def delete(self, request: Request, username: str) -> Response:
        refuse_body(request.data)
        services.follow_remove(user=request_user(request), username=username)
        return Response(status=status.HTTP_204_NO_CONTENT)
