"""What a match leaves behind: the score sheet, and records of rounds and of the match."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.authentication import request_user
from core import docs
from games import records, selectors
from games.api import bodies
from games.api import examples as ex
from games.api import serializers as s
from games.api.common import MATCH_ID, int_param, match_pk
from games.api.pagination import PAGE_SIZE, page_size_from
from games.errors import MatchNotFinished, RoundNotFinished, RoundNotFound
from games.models import MatchStatus, Round, RoundStatus


class RecordsResource(viewsets.GenericViewSet):
    """``/matches/{id}/rounds`` and the records (composed into ``MatchViewSet``)."""

    @extend_schema(
        operation_id="matches_rounds_list",
        parameters=[
            MATCH_ID,
            OpenApiParameter(
                "after",
                {"type": "integer", "minimum": 0, "maximum": 2**62},
                description="Only rounds numbered after this one (the `next` link sets it).",
            ),
            PAGE_SIZE,
        ],
        responses={
            200: OpenApiResponse(
                s.ScoreSheetSerializer, examples=[ex.SCORE_SHEET, ex.SCORE_SHEET_SAUDI]
            ),
            **docs.errors((400, "Bad `after` or `page_size` (`invalid`).")),
        },
        summary="The score sheet: one row per finished round",
    )
    @action(detail=True, methods=["get"])
    def rounds(self, request: Request, pk: str) -> Response:
        match, _ = selectors.match_for_viewer(match_pk(pk), request_user(request))
        after = int_param(request, "after", 0)
        size = page_size_from(request)
        # One row more than the page tells whether there is a next page.
        rows = selectors.score_sheet(match, after, limit=size + 1)
        page, more = rows[:size], len(rows) > size
        next_url = None
        if more:
            next_url = request.build_absolute_uri(
                f"{request.path}?after={page[-1].number}&page_size={size}"
            )
        return Response(bodies.score_sheet_page(page, next_url, match.scores))

    @extend_schema(
        operation_id="matches_rounds_record_retrieve",
        parameters=[
            MATCH_ID,
            OpenApiParameter("number", int, OpenApiParameter.PATH, description="Round number."),
        ],
        responses={
            200: s.RecordSerializer,
            **docs.errors((409, "The round is still being played (`round_not_finished`).")),
        },
        summary="A finished round as a baloot-record/1 record (deck and salt revealed)",
    )
    @action(detail=True, methods=["get"], url_path=r"rounds/(?P<number>[0-9]+)/record")
    def round_record(self, request: Request, pk: str, number: str) -> Response:
        match, _ = selectors.match_for_viewer(match_pk(pk), request_user(request))
        rnd = Round.objects.filter(match=match, number=int(number)).first()
        if rnd is None:
            raise RoundNotFound()
        if rnd.status == RoundStatus.IN_PROGRESS:
            raise RoundNotFinished()
        return Response(records.round_record(match, rnd))

    @extend_schema(
        operation_id="matches_record_retrieve",
        parameters=[MATCH_ID],
        responses={
            200: s.RecordSerializer,
            **docs.errors((409, "The match has not ended (`match_not_finished`).")),
        },
        summary="The whole match as a baloot-record/1 record, once it has ended",
    )
    @action(detail=True, methods=["get"])
    def record(self, request: Request, pk: str) -> Response:
        match, _ = selectors.match_for_viewer(match_pk(pk), request_user(request))
        if match.status not in (MatchStatus.FINISHED, MatchStatus.ABORTED):
            raise MatchNotFinished()
        return Response(records.match_record(match))
