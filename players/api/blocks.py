"""``GET``/``POST /me/blocks`` and ``DELETE /me/blocks/{username}``: the players you block.

A block keeps the two apart: it ends follows between them (both ways), withdraws open
invitations between them, refuses new ones either way, and quick play never seats them
together."""

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
    ListedPlayerSerializer,
    SocialPage,
    UsernameRequestSerializer,
    listed,
    username_example,
)
from players.selectors.social import block_json, blocks_of
from players.services import blocks as services

BLOCKED = OpenApiExample("A blocked player", value=LISTED_EXAMPLE, response_only=True)


class BlocksView(GenericAPIView):
    pagination_class = SocialPage
    serializer_class = ListedPlayerSerializer

    @property
    def throttle_scope(self) -> str:  # read by ScopedRateThrottle
        return "reads" if self.request.method == "GET" else "join"

    @extend_schema(
        operation_id="me_blocks_list",
        responses={200: ListedPlayerSerializer(many=True), **PAGE_ERRORS},
        summary="The players you block, newest first",
    )
    def get(self, request: Request) -> Response:
        page = self.paginate_queryset(blocks_of(request_user(request)))
        assert page is not None
        return self.get_paginated_response(listed([block_json(f) for f in page]))

    @extend_schema(
        operation_id="me_blocks_create",
        request=UsernameRequestSerializer,
        examples=username_example("Block layla"),
        responses={
            201: OpenApiResponse(
                ListedPlayerSerializer, description="Now blocked.", examples=[BLOCKED]
            ),
            200: OpenApiResponse(
                ListedPlayerSerializer, description="Blocked already; nothing changed."
            ),
            **docs.errors(
                (400, "Invalid body (`invalid`)."),
                (422, "Your own username (`cannot_block_self`)."),
                (404, UNKNOWN_USER),
                base=docs.AUTH_ERRORS,
            ),
        },
        summary="Block a player by username",
    )
    def post(self, request: Request) -> Response:
        data = validated_body(UsernameRequestSerializer, request.data)
        block, created = services.block_add(user=request_user(request), username=data["username"])
        body = listed([block_json(block)])[0]
        return Response(body, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class BlockView(GenericAPIView):
    throttle_scope = "join"
    serializer_class = ListedPlayerSerializer

    @extend_schema(
        operation_id="me_blocks_destroy",
        parameters=[USERNAME],
        request=None,
        responses={
            204: OpenApiResponse(description="No longer blocked."),
            **docs.errors(
                (400, docs.NO_BODY),
                (404, "You have not blocked that player (`not_blocked`)."),
                base=docs.AUTH_ERRORS,
            ),
        },
        summary="Unblock a player",
    )
    def delete(self, request: Request, username: str) -> Response:
        refuse_body(request.data)
        services.block_remove(user=request_user(request), username=username)
        return Response(status=status.HTTP_204_NO_CONTENT)
