"""Quick chat: ``GET /chat/phrases``, ``POST /matches/{id}/chat`` and ``GET /matches/{id}/chat``.

No free text: a message is one of the fixed phrases and emotes, so the only abuse left is
frequency, which two budgets per user and match bound (``chat_burst``: one message per two
seconds; ``chat``: ten a minute). The table's chat is the table's: only its seated players
send and read it, on HTTP and on the match stream.
"""

from __future__ import annotations

import re
from typing import Any

from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
)
from rest_framework import serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.authentication import request_user
from core import docs
from core.parsing import validated_body
from core.serializers import StrictCharField, StrictRequestSerializer
from core.throttling import FailOpenScopedRateThrottle, RefundOnRefusal
from games.api.common import MATCH_ID, int_param, match_pk
from games.api.pagination import PAGE_SIZE, page_size_from
from games.models import Match
from players.models import ChatMessage
from players.models.chat import PHRASES
from players.selectors.chat import chat_log
from players.services.chat import chat_seat, chat_send

# --- Throttles: per user and per match ----------------------------------------------------

_RATE = re.compile(r"^(\d+)/(\d*)([smhd])")


class MatchChatThrottle(FailOpenScopedRateThrottle):
    """A budget per user and match, named by the view's ``throttle_scope``. Rates may give a
    period count (``1/2s``: one per two seconds), which DRF's own parser reads as ``1/s``."""

    def parse_rate(self, rate: str | None) -> tuple[int | None, int | None]:
        if rate is None:
            return (None, None)
        found = _RATE.match(rate)
        if found is None:
            raise ValueError(f"bad rate {rate!r}")
        count, periods, unit = found.groups()
        seconds = {"s": 1, "m": 60, "h": 3600, "d": 86400}[unit]
        return (int(count), int(periods or 1) * seconds)

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if not request.user.is_authenticated:
            return None  # anonymous callers are refused by authentication first
        match = view.kwargs.get("pk", "")
        return self.cache_format % {"scope": self.scope, "ident": f"{request.user.pk}:{match}"}


class ChatBurstThrottle(MatchChatThrottle):
    scope_attr = "burst_throttle_scope"


# --- Bodies ----------------------------------------------------------------------------------


# Every phrase id, in the list's order: PhraseEnum (settings.ENUM_NAME_OVERRIDES), the one type
# of `phrase` in requests, answers and the stream, and of a listed phrase's `id`.
PHRASE_ENUM = [p.id for p in PHRASES]


class PhraseTextSerializer(serializers.Serializer):
    en = serializers.CharField()
    ar = serializers.CharField()


class PhraseSerializer(serializers.Serializer):
    id = serializers.ChoiceField(
        choices=PHRASE_ENUM, help_text="Stable id: what `POST /matches/{id}/chat` takes."
    )
    kind = serializers.ChoiceField(choices=["phrase", "emote"])
    text = PhraseTextSerializer(help_text="The phrase in every language the service speaks.")


class PhraseListSerializer(serializers.Serializer):
    results = PhraseSerializer(many=True)


@extend_schema_field({"type": "string", "enum": PHRASE_ENUM})
class PhraseIdField(StrictCharField):
    """A phrase id: documented as the list's enum; any other text is the service's
    ``400 unknown_phrase`` (a field error naming ``phrase``), not DRF's ``invalid_choice``."""


class ChatSendRequestSerializer(StrictRequestSerializer):
    # allow_blank: a blank phrase is the service's unknown_phrase like any other text (and the
    # schema, an enum, needs no minLength beside it).
    phrase = PhraseIdField(allow_blank=True, help_text="A phrase id from `GET /chat/phrases`.")


class ChatMessageSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    match_id = serializers.IntegerField()
    seat = serializers.IntegerField(help_text="The sender's seat.")
    phrase = serializers.ChoiceField(
        choices=PHRASE_ENUM, help_text="A phrase id from `GET /chat/phrases`."
    )
    created_at = serializers.DateTimeField()


class ChatLogSerializer(serializers.Serializer):
    results = ChatMessageSerializer(many=True)
    next = serializers.URLField(allow_null=True)


def phrase_list() -> dict[str, Any]:
    return {
        "results": [{"id": p.id, "kind": p.kind, "text": {"en": p.en, "ar": p.ar}} for p in PHRASES]
    }


def message_body(message: ChatMessage) -> dict[str, Any]:
    return {
        "id": message.pk,
        "match_id": message.match_id,
        "seat": message.seat,
        "phrase": message.phrase,
        "created_at": message.created_at,
    }


_MESSAGE = {
    "id": 41,
    "match_id": 7,
    "seat": 2,
    "phrase": "well_played",
    "created_at": "2026-12-01T20:15:03.120000Z",
}
NOT_SEATED = "Not seated in this public match: the chat is the table's (`not_a_player`)."


class ChatPhrasesView(GenericAPIView):
    """Quick chat: the fixed phrases and emotes, sent to a table and shown in its stream."""

    throttle_scope = "reads"

    @extend_schema(
        operation_id="chat_phrases_list",
        responses={
            200: OpenApiResponse(
                PhraseListSerializer,
                examples=[
                    OpenApiExample(
                        "Phrases",
                        value={
                            "results": [
                                {
                                    "id": "well_played",
                                    "kind": "phrase",
                                    "text": {"en": "Well played!", "ar": "أحسنت!"},
                                },
                                {"id": "laugh", "kind": "emote", "text": {"en": "😂", "ar": "😂"}},
                            ]
                        },
                    )
                ],
            ),
            **docs.AUTH_ERRORS,
        },
        summary="The quick-chat phrases and emotes (both languages)",
    )
    def get(self, request: Request) -> Response:
        return Response(phrase_list())


class MatchChatView(RefundOnRefusal, GenericAPIView):
    """Quick chat: the fixed phrases and emotes, sent to a table and shown in its stream."""

    # As for moderation's view under /matches: the queryset names the path parameter `id`.
    queryset = Match.objects.none()
    serializer_class = ChatSendRequestSerializer  # what OPTIONS describes
    throttle_classes = [MatchChatThrottle, ChatBurstThrottle]
    # The budgets pace the messages a table hears: a refused one (an unknown phrase, a closed
    # chat, a 429 of the other budget) is not heard, so it costs nothing.

    @property
    def throttle_scope(self) -> str:
        return "chat" if self.request.method == "POST" else "reads"

    @property
    def burst_throttle_scope(self) -> str | None:
        return "chat_burst" if self.request.method == "POST" else None

    @extend_schema(
        operation_id="matches_chat_create",
        parameters=[MATCH_ID],
        request=ChatSendRequestSerializer,
        examples=[
            OpenApiExample("Well played", value={"phrase": "well_played"}, request_only=True),
            OpenApiExample("Well played", value=_MESSAGE, response_only=True, status_codes=[201]),
        ],
        responses={
            201: ChatMessageSerializer,
            **docs.errors(
                (400, "Invalid body (`invalid`) or not a phrase of the list (`unknown_phrase`)."),
                (403, NOT_SEATED),
                (409, "The match ended more than 10 minutes ago (`chat_closed`)."),
                (
                    429,
                    "Too many messages (`throttled`): one per 2 s, 10 a minute; see `Retry-After`.",
                ),
            ),
        },
        summary="Send a quick-chat phrase to your table",
    )
    def post(self, request: Request, pk: str) -> Response:
        data = validated_body(ChatSendRequestSerializer, request.data)
        message = chat_send(
            user=request_user(request), match_id=match_pk(pk), phrase=data["phrase"]
        )
        return Response(message_body(message), status=status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="matches_chat_list",
        parameters=[
            MATCH_ID,
            OpenApiParameter(
                "after",
                {"type": "integer", "minimum": 0, "maximum": 2**62},
                description="Only messages with an id above this one (the `next` link sets it).",
            ),
            PAGE_SIZE,
        ],
        responses={
            200: OpenApiResponse(
                ChatLogSerializer,
                description="Oldest first; phrases of players you blocked are left out.",
                examples=[OpenApiExample("A page", value={"results": [_MESSAGE], "next": None})],
            ),
            **docs.errors((400, "Bad `after` or `page_size` (`invalid`)."), (403, NOT_SEATED)),
        },
        summary="Your table's quick chat",
    )
    def get(self, request: Request, pk: str) -> Response:
        user = request_user(request)
        match, _ = chat_seat(match_id=match_pk(pk), user=user)
        after = int_param(request, "after", 0)
        size = page_size_from(request)
        # One message more than the page tells whether there is a next page.
        rows = chat_log(match, user.pk, after, size + 1)
        page, more = rows[:size], len(rows) > size
        next_url = None
        if more:
            next_url = request.build_absolute_uri(
                f"{request.path}?after={page[-1].pk}&page_size={size}"
            )
        return Response({"results": [message_body(m) for m in page], "next": next_url})
