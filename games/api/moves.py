"""A match's moves: make one (with idempotent retries), and read the public log."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.authentication import request_user
from core import docs
from core.errors import InvalidInput
from core.parsing import validated_body
from games import engine, selectors, services
from games.api import bodies, idempotency
from games.api import examples as ex
from games.api import serializers as s
from games.api.common import MATCH_ID, etag_header, int_param, match_pk
from games.api.pagination import PAGE_SIZE, page_size_from
from games.errors import NotInRuleset

# The column that stores it with the answer it replays is this long; the schema states it.
MAX_IDEMPOTENCY_KEY = 200


class MovesResource(viewsets.GenericViewSet):
    """``/matches/{id}/moves`` (composed into ``MatchViewSet``)."""

    # --- moves -------------------------------------------------------------------------------

    @extend_schema(
        methods=["POST"],
        operation_id="matches_moves_create",
        parameters=[
            MATCH_ID,
            OpenApiParameter(
                "Idempotency-Key",
                {"type": "string", "minLength": 1, "maxLength": MAX_IDEMPOTENCY_KEY},
                OpenApiParameter.HEADER,
                description=(
                    "Retry-safe key (at most 200 characters), scoped to you and the match and "
                    "kept 24 hours: the same key and body return the first answer (with "
                    "`Idempotent-Replayed: true`); the same key with another body is 422 "
                    "`idempotency_key_reused`."
                ),
            ),
            etag_header(201),
            OpenApiParameter(
                "Idempotent-Replayed",
                str,
                OpenApiParameter.HEADER,
                response=[201],
                enum=["true"],
                description="Present when this answer is the stored one of an earlier request.",
            ),
        ],
        request=s.MOVE_REQUEST,
        examples=ex.MOVE_REQUESTS,
        responses={
            201: OpenApiResponse(
                s.MatchViewSerializer,
                description="The move was made: your new view of the match.",
                examples=[ex.MATCH_VIEW, ex.MATCH_VIEW_SAUDI],
            ),
            **docs.errors(
                (400, "Not a valid move body (`invalid`, `malformed`)."),
                (403, "Not seated in this match (`not_a_player`)."),
                (409, "`stale_version` (with `current_version`) or `match_not_active`."),
                (
                    422,
                    "Refused by the rules (`not_your_turn`, `illegal_call`, `card_not_held`, "
                    "`locked_trump_lead`, `must_follow_suit`, `invalid_project`; in `saudi` "
                    "Hokum also `must_trump` and `must_overtrump`), `not_in_ruleset` (`sawa` "
                    "outside `saudi`) or `idempotency_key_reused`.",
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
            200: OpenApiResponse(s.MoveLogSerializer, examples=[ex.MOVE_LOG, ex.MOVE_LOG_SAUDI]),
            **docs.errors((400, "Bad `after` or `page_size` (`invalid`).")),
        },
        summary="The public move log after a version",
    )
    @action(detail=True, methods=["get", "post"])
    def moves(self, request: Request, pk: str) -> Response:
        if request.method == "GET":
            return self._move_log(request, match_pk(pk))
        # Validated for shape here; the engine parses the move itself from the same fields.
        data = request.data
        expected = validated_body(s.MoveRequestSerializer, data).get("expected_version")
        assert isinstance(data, dict)  # validated_body refuses any other body with a 400
        payload = {k: v for k, v in data.items() if k != "expected_version"}
        key = request.headers.get("Idempotency-Key") or None
        if key is not None and len(key) > MAX_IDEMPOTENCY_KEY:
            detail = _("Idempotency-Key is at most 200 characters.")
            error = {"field": "Idempotency-Key", "code": "max_length", "detail": detail}
            raise InvalidInput(detail, errors=[error])

        fingerprint = idempotency.request_fingerprint({**payload, "expected_version": expected})
        # One transaction and one lock around the replay check, the move, the rendering and
        # the stored answer: a retry racing this one waits here and then replays our answer.
        user = request_user(request)
        with transaction.atomic():
            match, seat = services.match_lock_seated(match_id=match_pk(pk), user=user)
            stored = None
            if key:
                stored = idempotency.stored_answer(
                    user=user, match=match, key=key, fingerprint=fingerprint
                )
            if stored is not None:
                body, status_code = stored.body, stored.status_code
            else:
                # In the match's ruleset: `sawa` and a Double's `locked` exist in `saudi` only.
                rules = engine.get_ruleset(match.ruleset)
                if payload.get("type") == "sawa" and not rules.sawa:
                    raise NotInRuleset()
                move = engine.move_from_dict(payload, rules)  # MalformedMove -> 400
                services.move_make(match=match, seat=seat, move=move, expected_version=expected)
                viewed = selectors.viewed_match(match, seat)
                body, status_code = bodies.match_view(viewed), status.HTTP_201_CREATED
                if key:
                    idempotency.answer_store(
                        user=user,
                        match=match,
                        key=key,
                        fingerprint=fingerprint,
                        status=status_code,
                        body=body,
                    )
        headers = {"ETag": selectors.etag_for(body["id"], body["version"], body.get("my_seat"))}
        if stored is not None:
            headers["Idempotent-Replayed"] = "true"
        return Response(body, status=status_code, headers=headers)

    def _move_log(self, request: Request, match_id: int) -> Response:
        viewed = selectors.viewed_match_for(match_id, request_user(request))
        after = int_param(request, "after", 0)
        size = page_size_from(request)
        # One entry more than the page tells whether there is a next page.
        entries = selectors.move_log_entries(viewed, after, limit=size + 1)
        page, more = entries[:size], len(entries) > size
        next_url = None
        if more:
            next_url = request.build_absolute_uri(
                f"{request.path}?after={page[-1].version}&page_size={size}"
            )
        return Response(bodies.move_log_page(page, next_url, viewed.header.version))
