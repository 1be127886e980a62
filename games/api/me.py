"""The caller's own pages: their profile with statistics, and their inbox of matches.

They live with the games, not the accounts, because both are about the caller's matches;
the accounts app knows nothing of games.
"""

from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import selectors as account_selectors
from accounts.authentication import request_user
from core import docs
from games import selectors
from games.api import bodies
from games.api import examples as ex
from games.api.common import if_none_match
from games.api.pagination import CURSOR, PAGE_SIZE, InboxCursor
from games.api.serializers import InboxEntrySerializer, MeSerializer
from games.selectors.stats import player_stats


class MeView(APIView):
    throttle_scope = "reads"

    @extend_schema(
        operation_id="me_retrieve",
        responses={200: MeSerializer, **docs.AUTH_ERRORS},
        summary="Your profile and statistics",
    )
    def get(self, request: Request) -> Response:
        user = request_user(request)
        return Response(
            {
                **account_selectors.user_json(user),
                "date_joined": user.date_joined,
                "stats": player_stats(user),
            }
        )


class InboxView(GenericAPIView):
    throttle_scope = "reads"
    pagination_class = InboxCursor
    serializer_class = InboxEntrySerializer

    @extend_schema(
        operation_id="me_matches_list",
        parameters=[
            CURSOR,
            PAGE_SIZE,
            OpenApiParameter(
                "If-None-Match",
                str,
                OpenApiParameter.HEADER,
                description="The ETag of this page from an earlier answer: 304 while unchanged.",
            ),
            OpenApiParameter(
                "ETag",
                str,
                OpenApiParameter.HEADER,
                response=[200, 304],
                description="Identifies this page of your inbox as it is now.",
            ),
        ],
        responses={
            200: OpenApiResponse(InboxEntrySerializer(many=True), examples=[ex.INBOX]),
            304: OpenApiResponse(description="Unchanged since the ETag sent in If-None-Match."),
            **docs.errors(
                (400, "Bad `page_size` (`invalid`)."),
                (404, "A `cursor` that did not come from a `next` link (`not_found`)."),
                base=docs.AUTH_ERRORS,
            ),
        },
        summary="Your matches: your turn first, then by deadline",
    )
    def get(self, request: Request) -> Response | HttpResponse:
        user = request_user(request)
        page = self.paginate_queryset(selectors.inbox_for(user))
        assert page is not None
        response = self.get_paginated_response(bodies.match_summaries(page, user))
        # The page's own content names it: every change that moves a match in the inbox
        # (a move, a deadline, a seat going away, a name) changes the rendered page.
        tag = selectors.inbox_etag(response.data)
        if tag in if_none_match(request):
            return HttpResponse(status=304, headers={"ETag": tag})
        response["ETag"] = tag
        return response
