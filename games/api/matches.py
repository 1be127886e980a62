"""Matches as a resource: create, list, the lobby, live matches, one match, join, leave,
resign, back."""

from __future__ import annotations

from django.db.models import QuerySet
from django.http import HttpResponse
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.authentication import request_user
from core import docs
from core.errors import InvalidInput
from core.parsing import refuse_body, validated_body
from games import selectors, services
from games.api import bodies
from games.api import examples as ex
from games.api import serializers as s
from games.api.common import (
    IF_NONE_MATCH,
    MATCH_ID,
    etag,
    etag_header,
    if_none_match,
    match_pk,
    view_response,
)
from games.api.pagination import CURSOR, PAGE_SIZE
from games.api.serializers.spectating import LiveMatchSerializer
from games.models import Match, MatchStatus

_LIVE_ROW = LiveMatchSerializer()


class MatchesResource(viewsets.GenericViewSet):
    """The collection and one match (composed into ``MatchViewSet``)."""

    # --- collection --------------------------------------------------------------------------

    @extend_schema(
        operation_id="matches_create",
        parameters=[etag_header(201)],
        request=s.MatchCreateRequestSerializer,
        examples=ex.MATCH_CREATE_REQUESTS,
        responses={
            201: OpenApiResponse(
                s.MatchViewSerializer,
                description="The new match as its creator sees it (`invite_code` when private).",
                examples=[ex.MATCH_VIEW],
            ),
            **docs.errors((400, "Invalid options (`invalid`)."), base=docs.AUTH_ERRORS),
        },
        summary="Create a match (the creator takes seat 0)",
    )
    def create(self, request: Request) -> Response:
        data = validated_body(s.MatchCreateRequestSerializer, request.data)
        match = services.match_create(
            creator=request_user(request),
            ruleset=data["ruleset"],
            target=data["target"],
            turn_seconds=data["turn_seconds"],
            visibility=data["visibility"],
            bots=data["bots"],
            rated=data["rated"],
        )
        _, seat = selectors.match_for_viewer(match.pk, request_user(request))
        return view_response(selectors.viewed_match(match, seat), status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="matches_list",
        parameters=[
            OpenApiParameter("status", str, enum=MatchStatus.values),
            PAGE_SIZE,
        ],
        responses={
            200: s.MatchSummarySerializer(many=True),
            **docs.errors(
                (400, "Bad filter or `page_size` (`invalid`)."),
                (404, "A `cursor` that did not come from a `next` link (`not_found`)."),
                base=docs.AUTH_ERRORS,
            ),
        },
        summary="Matches you sit in, and public ones",
    )
    def list(self, request: Request) -> Response:
        queryset = selectors.matches_visible_to(request_user(request))
        wanted = request.query_params.get("status")
        if wanted is not None:
            if wanted not in MatchStatus.values:
                raise InvalidInput(
                    _("Unknown status %(status)r.") % {"status": wanted},
                    errors=[{"field": "status", "code": "invalid_choice", "detail": _("Unknown.")}],
                )
            queryset = queryset.filter(status=wanted)
        return self._page(queryset.prefetch_related("seats__user"))

    @extend_schema(
        operation_id="matches_open_list",
        parameters=[CURSOR, PAGE_SIZE],
        responses={
            200: s.MatchSummarySerializer(many=True),
            **docs.errors(
                (400, "Bad `page_size` (`invalid`)."),
                (404, "A `cursor` that did not come from a `next` link (`not_found`)."),
                base=docs.AUTH_ERRORS,
            ),
        },
        summary="The public lobby: waiting public matches with free seats",
    )
    @action(detail=False, methods=["get"], url_path="open")
    def open(self, request: Request) -> Response:
        return self._page(selectors.lobby().prefetch_related("seats__user"))

    @extend_schema(
        operation_id="matches_live_list",
        parameters=[CURSOR, PAGE_SIZE],
        responses={
            200: LiveMatchSerializer(many=True),
            **docs.errors(
                (400, "Bad `page_size` (`invalid`)."),
                (404, "A `cursor` that did not come from a `next` link (`not_found`)."),
                base=docs.AUTH_ERRORS,
            ),
        },
        summary="Live public matches to spectate (seen one complete trick behind)",
        description=(
            "Active public matches, newest first. A spectator (anyone not seated) sees each "
            "one, here and in `GET /matches/{id}`, its move log and its stream, as it was one "
            "complete trick ago: `version`, `to_act` and `updated_at` are those of that moment "
            "and `deadline` is null."
        ),
    )
    @action(detail=False, methods=["get"], url_path="live")
    def live(self, request: Request) -> Response:
        user = request_user(request)
        page = self.paginate_queryset(selectors.live_matches().prefetch_related("seats__user"))
        assert page is not None
        rows = [_LIVE_ROW.to_representation(row) for row in selectors.match_rows(page, user)]
        return self.get_paginated_response(rows)

    def _page(self, queryset: QuerySet[Match]) -> Response:
        user = request_user(self.request)
        page = self.paginate_queryset(queryset)
        assert page is not None
        return self.get_paginated_response(bodies.match_summaries(page, user))

    # --- one match ---------------------------------------------------------------------------

    @extend_schema(
        operation_id="matches_retrieve",
        parameters=[MATCH_ID, IF_NONE_MATCH, etag_header(200, 304)],
        responses={
            200: OpenApiResponse(
                s.MatchViewSerializer,
                description="The match as you may see it.",
                examples=[ex.MATCH_VIEW, ex.MATCH_VIEW_SAUDI],
            ),
            304: OpenApiResponse(
                description="Not modified since the ETag sent in If-None-Match (no body)."
            ),
            **docs.MATCH_ERRORS,
        },
        summary="The match as you may see it (your hand and legal moves when seated)",
    )
    def retrieve(self, request: Request, pk: str) -> Response | HttpResponse:
        viewed = selectors.viewed_match_for(match_pk(pk), request_user(request))
        tag = etag(viewed)
        if tag in if_none_match(request):
            return HttpResponse(status=304, headers={"ETag": tag})
        return view_response(viewed)

    @extend_schema(
        operation_id="matches_join",
        parameters=[MATCH_ID, etag_header(200)],
        request=s.MatchJoinRequestSerializer,
        examples=ex.MATCH_JOIN_REQUESTS,
        responses={
            200: s.MatchViewSerializer,
            **docs.errors(
                (400, "Invalid body (`invalid`)."),
                (
                    409,
                    "`match_not_waiting`, `already_seated`, `seat_taken`, `match_full`, or a "
                    "block, either way, between you and a player seated there (`user_blocked`).",
                ),
            ),
        },
        summary="Take a free seat (`code` for private matches)",
    )
    @action(detail=True, methods=["post"])
    def join(self, request: Request, pk: str) -> Response:
        data = validated_body(s.MatchJoinRequestSerializer, request.data)
        match = services.match_join(
            match_id=match_pk(pk),
            user=request_user(request),
            seat=data.get("seat"),
            code=data.get("code"),
        )
        return self._seated_view(match)

    @extend_schema(
        operation_id="matches_leave",
        parameters=[MATCH_ID, etag_header(200)],
        request=None,
        responses={
            200: s.MatchViewSerializer,
            **docs.errors(
                (400, docs.NO_BODY),
                (403, "Not seated (`not_a_player`)."),
                (409, "`match_not_waiting`."),
            ),
        },
        summary="Give up your seat before the match starts",
    )
    @action(detail=True, methods=["post"])
    def leave(self, request: Request, pk: str) -> Response:
        refuse_body(request.data)
        match = services.match_leave(match_id=match_pk(pk), user=request_user(request))
        return view_response(selectors.viewed_match(match, None))

    @extend_schema(
        operation_id="matches_resign",
        parameters=[MATCH_ID, etag_header(200)],
        request=None,
        responses={
            200: s.MatchViewSerializer,
            **docs.errors(
                (400, docs.NO_BODY),
                (403, "Not seated (`not_a_player`)."),
                (409, "`match_not_active`."),
            ),
        },
        summary="Resign: your team loses the match",
    )
    @action(detail=True, methods=["post"])
    def resign(self, request: Request, pk: str) -> Response:
        refuse_body(request.data)
        match = services.match_resign(match_id=match_pk(pk), user=request_user(request))
        return self._seated_view(match)

    @extend_schema(
        operation_id="matches_back",
        parameters=[MATCH_ID, etag_header(200)],
        request=None,
        responses={
            200: s.MatchViewSerializer,
            **docs.errors(
                (400, docs.NO_BODY),
                (403, "Not seated (`not_a_player`)."),
                (409, "`match_not_active`."),
            ),
        },
        summary="Take your seat back from the bot after going away",
    )
    @action(detail=True, methods=["post"])
    def back(self, request: Request, pk: str) -> Response:
        refuse_body(request.data)
        match = services.seat_come_back(match_id=match_pk(pk), user=request_user(request))
        return self._seated_view(match)

    def _seated_view(self, match: Match) -> Response:
        return view_response(selectors.viewed_match_for(match.pk, request_user(self.request)))
