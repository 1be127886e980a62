"""Match endpoints: thin views that parse input, call one service or selector, and render.

Every refusal is raised as an exception and rendered by ``baloot_site.errors`` in the one
problem-details shape; nothing here writes to the database directly.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpResponse
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from core import docs
from core.errors import InvalidInput
from core.parsing import refuse_body, validated_body
from games import engine, records, selectors, services
from games.api import idempotency
from games.api import serializers as s
from games.api.pagination import CURSOR, PAGE_SIZE, NewestFirstCursor, page_size_from
from games.errors import MatchNotFinished, MatchNotFound, RoundNotFinished, RoundNotFound
from games.models import Match, MatchStatus, Round, RoundStatus, Seat

MATCH_ID = OpenApiParameter("id", int, OpenApiParameter.PATH, description="Match id.")


def _view_response(match: Match, seat: Seat | None, status_code: int = 200) -> Response:
    body = selectors.match_view(match, seat)
    return Response(body, status=status_code, headers={"ETag": _etag(match, seat)})


class MatchViewSet(viewsets.GenericViewSet):
    """Matches: create, list, lobby, join/leave/resign, the per-seat view, moves and records."""

    queryset = Match.objects.all()
    pagination_class = NewestFirstCursor
    serializer_class = s.MatchSummarySerializer
    _SCOPES = {
        "create": "match_create",
        "join": "join",
        "moves": "moves",
        "leave": "join",
        "resign": "join",
        "back": "join",
    }

    @property
    def throttle_scope(self) -> str:  # read by ScopedRateThrottle, per action
        if self.action == "moves" and self.request.method == "GET":
            return "reads"
        return self._SCOPES.get(self.action or "", "reads")

    # --- collection --------------------------------------------------------------------------

    @extend_schema(
        operation_id="matches_create",
        request=s.MatchCreateRequestSerializer,
        responses={
            201: s.MatchViewSerializer,
            **docs.errors((400, "Invalid options (`invalid`)."), base=docs.AUTH_ERRORS),
        },
        summary="Create a match (the creator takes seat 0)",
    )
    def create(self, request: Request) -> Response:
        data = validated_body(s.MatchCreateRequestSerializer, request.data)
        match = services.match_create(
            creator=request.user,
            ruleset=data["ruleset"],
            target=data["target"],
            turn_seconds=data["turn_seconds"],
            visibility=data["visibility"],
            bots=data["bots"],
        )
        _, seat = selectors.match_for_viewer(match.pk, request.user)
        return _view_response(match, seat, status.HTTP_201_CREATED)

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
        queryset = selectors.matches_visible_to(request.user)
        wanted = request.query_params.get("status")
        if wanted is not None:
            if wanted not in MatchStatus.values:
                raise InvalidInput(
                    f"Unknown status {wanted!r}.",
                    errors=[{"field": "status", "code": "invalid_choice", "detail": "Unknown."}],
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

    def _page(self, queryset: QuerySet[Match]) -> Response:
        page = self.paginate_queryset(queryset)
        assert page is not None
        return self.get_paginated_response(
            [selectors.match_summary(m, self.request.user) for m in page]
        )

    # --- one match ---------------------------------------------------------------------------

    @extend_schema(
        operation_id="matches_retrieve",
        parameters=[MATCH_ID],
        responses={
            200: s.MatchViewSerializer,
            304: OpenApiResponse(description="Not modified since the ETag sent in If-None-Match."),
            **docs.MATCH_ERRORS,
        },
        summary="The match as you may see it (your hand and legal moves when seated)",
    )
    def retrieve(self, request: Request, pk: str) -> Response | HttpResponse:
        match, seat = selectors.match_for_viewer(_pk(pk), request.user)
        etag = _etag(match, seat)
        if etag in _if_none_match(request):
            return HttpResponse(status=304, headers={"ETag": etag})
        return _view_response(match, seat)

    @extend_schema(
        operation_id="matches_join",
        parameters=[MATCH_ID],
        request=s.MatchJoinRequestSerializer,
        responses={
            200: s.MatchViewSerializer,
            **docs.errors(
                (400, "Invalid body (`invalid`)."),
                (409, "`match_not_waiting`, `already_seated`, `seat_taken` or `match_full`."),
            ),
        },
        summary="Take a free seat (`code` for private matches)",
    )
    @action(detail=True, methods=["post"])
    def join(self, request: Request, pk: str) -> Response:
        data = validated_body(s.MatchJoinRequestSerializer, request.data)
        match = services.match_join(
            match_id=_pk(pk), user=request.user, seat=data.get("seat"), code=data.get("code")
        )
        return self._seated_view(match)

    @extend_schema(
        operation_id="matches_leave",
        parameters=[MATCH_ID],
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
        match = services.match_leave(match_id=_pk(pk), user=request.user)
        return _view_response(match, None)

    @extend_schema(
        operation_id="matches_resign",
        parameters=[MATCH_ID],
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
        match = services.match_resign(match_id=_pk(pk), user=request.user)
        return self._seated_view(match)

    @extend_schema(
        operation_id="matches_back",
        parameters=[MATCH_ID],
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
        match = services.seat_come_back(match_id=_pk(pk), user=request.user)
        return self._seated_view(match)

    def _seated_view(self, match: Match) -> Response:
        match, seat = selectors.match_for_viewer(match.pk, self.request.user)
        return _view_response(match, seat)

    # --- moves -------------------------------------------------------------------------------

    @extend_schema(
        methods=["POST"],
        operation_id="matches_moves_create",
        parameters=[
            MATCH_ID,
            OpenApiParameter(
                "Idempotency-Key",
                str,
                OpenApiParameter.HEADER,
                description="Retry-safe key: the same key and body return the first answer.",
            ),
        ],
        request=s.MoveRequestSerializer,
        responses={
            201: s.MatchViewSerializer,
            **docs.errors(
                (400, "Not a valid move body (`invalid`, `malformed`)."),
                (403, "Not seated in this match (`not_a_player`)."),
                (409, "`stale_version` (with `current_version`) or `match_not_active`."),
                (
                    422,
                    "Refused by the rules (`not_your_turn`, `illegal_call`, `card_not_held`, "
                    "`locked_trump_lead`, `must_follow_suit`, `invalid_project`) or "
                    "`idempotency_key_reused`.",
                ),
            ),
        },
        summary="Make a move",
    )
    @extend_schema(
        methods=["GET"],
        operation_id="matches_moves_list",
        parameters=[
            MATCH_ID,
            OpenApiParameter(
                "after",
                {"type": "integer", "minimum": 0, "maximum": 2**62},
                description="Only moves after this match version.",
            ),
            PAGE_SIZE,
        ],
        responses={
            200: s.MoveLogSerializer,
            **docs.errors((400, "Bad `after` or `page_size` (`invalid`).")),
        },
        summary="The public move log after a version",
    )
    @action(detail=True, methods=["get", "post"])
    def moves(self, request: Request, pk: str) -> Response:
        if request.method == "GET":
            return self._move_log(request, _pk(pk))
        # Validated for shape here; the engine parses the move itself from the same fields.
        expected = validated_body(s.MoveRequestSerializer, request.data).get("expected_version")
        payload = {k: v for k, v in request.data.items() if k != "expected_version"}
        key = request.headers.get("Idempotency-Key") or None
        if key is not None and len(key) > 200:
            raise InvalidInput("Idempotency-Key is at most 200 characters.")

        fingerprint = idempotency.request_fingerprint({**payload, "expected_version": expected})
        # One transaction and one lock around the replay check, the move, the rendering and
        # the stored answer: a retry racing this one waits here and then replays our answer.
        with transaction.atomic():
            match, seat = services.match_lock_seated(match_id=_pk(pk), user=request.user)
            stored = None
            if key:
                stored = idempotency.stored_answer(
                    user=request.user, match=match, key=key, fingerprint=fingerprint
                )
            if stored is not None:
                body, status_code = stored.body, stored.status_code
            else:
                move = engine.move_from_dict(payload)  # MalformedMove -> 400
                services.move_make(match=match, seat=seat, move=move, expected_version=expected)
                body, status_code = selectors.match_view(match, seat), status.HTTP_201_CREATED
                if key:
                    idempotency.answer_store(
                        user=request.user,
                        match=match,
                        key=key,
                        fingerprint=fingerprint,
                        status=status_code,
                        body=body,
                    )
        etag = selectors.etag_for(body["id"], body["version"], body.get("my_seat"))
        headers = {"ETag": etag}
        if stored is not None:
            headers["Idempotent-Replayed"] = "true"
        return Response(body, status=status_code, headers=headers)

    def _move_log(self, request: Request, match_id: int) -> Response:
        match, seat = selectors.match_for_viewer(match_id, request.user)
        after = _int_param(request, "after", 0)
        size = page_size_from(request)
        # One entry more than the page tells whether there is a next page.
        entries = selectors.move_log(match, seat, after, limit=size + 1)
        page, more = entries[:size], len(entries) > size
        next_url = None
        if more:
            next_url = request.build_absolute_uri(
                f"{request.path}?after={page[-1]['version']}&page_size={size}"
            )
        return Response({"results": page, "next": next_url, "version": match.version})

    @extend_schema(
        operation_id="matches_rounds_list",
        parameters=[MATCH_ID],
        responses={200: s.ScoreSheetSerializer, **docs.MATCH_ERRORS},
        summary="The score sheet: one row per finished round",
    )
    @action(detail=True, methods=["get"])
    def rounds(self, request: Request, pk: str) -> Response:
        match, _ = selectors.match_for_viewer(_pk(pk), request.user)
        return Response(
            {"results": selectors.score_sheet(match), "next": None, "scores": match.scores}
        )

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
        match, _ = selectors.match_for_viewer(_pk(pk), request.user)
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
        match, _ = selectors.match_for_viewer(_pk(pk), request.user)
        if match.status not in (MatchStatus.FINISHED, MatchStatus.ABORTED):
            raise MatchNotFinished()
        return Response(records.match_record(match))


def _etag(match: Match, seat: Seat | None) -> str:
    return selectors.etag_for(match.pk, match.version, seat.index if seat else None)


def _pk(value: str) -> int:
    try:
        pk = int(value)
    except (TypeError, ValueError):
        raise MatchNotFound() from None
    if pk <= 0 or pk > 2**62:
        raise MatchNotFound()
    return pk


def _int_param(request: Request, name: str, default: int) -> int:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise InvalidInput(
            f"{name} must be an integer.",
            errors=[{"field": name, "code": "invalid", "detail": "Expected an integer."}],
        ) from None
    if value < 0 or value > 2**62:
        raise InvalidInput(
            f"{name} is out of range.",
            errors=[{"field": name, "code": "invalid", "detail": "Out of range."}],
        )
    return value


def _if_none_match(request: Request) -> set[str]:
    header = request.headers.get("If-None-Match", "")
    return {tag.strip() for tag in header.split(",") if tag.strip()}
