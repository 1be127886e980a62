"""Cursor pagination for every list (api.md: ``results`` and an absolute ``next``).

``page_size`` is a positive integer (larger than 100 is capped at 100), anything else a
``400 invalid`` naming it, on every list. ``cursor`` is an opaque token from ``next``; one the
server did not mint is a ``404 not_found`` (DRF's answer, documented on every list).

Two kinds of cursor:
- ``NewestFirstCursor``, DRF's cursor on one timestamp (matches, the lobby);
- ``KeysetCursor``, for a composite order (the inbox). DRF's cursor positions on the first
  ordering field only and counts an offset through its ties, so while rows change between two
  pages it repeats or skips rows that did not change. The keyset cursor carries every sort key
  of the last row and continues strictly after it.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib import parse

from django.db.models import Q, QuerySet
from django.utils.dateparse import parse_datetime
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter
from rest_framework.exceptions import NotFound
from rest_framework.pagination import Cursor, CursorPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param

from core.errors import InvalidField
from core.parsing import ascii_integer

MAX_PAGE_SIZE = 100
PAGE_SIZE_DESCRIPTION = f"Items per page, at most {MAX_PAGE_SIZE} (larger values are capped)."
PAGE_SIZE = OpenApiParameter(
    "page_size", {"type": "integer", "minimum": 1}, description=PAGE_SIZE_DESCRIPTION
)

CURSOR = OpenApiParameter(
    "cursor", str, description="The cursor from the previous page's `next` link."
)


def _invalid(name: str, detail: str | Promise) -> InvalidField:
    return InvalidField(name, detail)


def page_size_from(request: Request, default: int = MAX_PAGE_SIZE) -> int:
    """The ``page_size`` query parameter: a positive integer, capped at the maximum."""
    raw = request.query_params.get("page_size")
    if raw is None:
        return default
    value = ascii_integer(raw)
    if value is None:
        raise _invalid("page_size", _("Expected an integer."))
    if value < 1:
        raise _invalid("page_size", _("Expected a positive integer."))
    return min(value, MAX_PAGE_SIZE)


def _timestamp(value: Any) -> datetime:
    """An aware timestamp from a cursor, or ValueError. The UTC conversion the database
    adapters make is tried here, so an edge year cannot overflow there (a 500)."""
    parsed = parse_datetime(value) if isinstance(value, str) else None
    if parsed is None or parsed.tzinfo is None:
        raise ValueError("not an aware timestamp")
    try:
        parsed.astimezone(UTC)
    except OverflowError:
        raise ValueError("timestamp out of range") from None
    return parsed


class NewestFirstCursor(CursorPagination):
    page_size = MAX_PAGE_SIZE
    max_page_size = MAX_PAGE_SIZE
    page_size_query_param = "page_size"
    ordering = "-created_at"
    # The previous link is left out: clients walk forward and refresh from the top.

    def get_page_size(self, request: Request) -> int:
        return page_size_from(request, self.page_size)

    def decode_cursor(self, request: Request) -> Cursor | None:
        """DRF's cursor (base64 of ``o=offset&r=reverse&p=position``), read strictly.

        DRF checks the offset and direction but hands the position to the database as it is,
        so a forged one ("p=x") was a 500; and it reads any other text as the first page.
        Anything but the three keys, once each, with a timestamp position, is a 404 here.
        """
        encoded = request.query_params.get(self.cursor_query_param)
        if encoded is None:
            return None
        try:
            text = base64.b64decode(encoded.encode("ascii"), validate=True).decode("ascii")
            tokens = parse.parse_qs(text, keep_blank_values=True, strict_parsing=bool(text))
            if set(tokens) - {"o", "r", "p"} or any(len(v) != 1 for v in tokens.values()):
                raise ValueError("not one of our cursors")
            offset = int(tokens.get("o", ["0"])[0])
            reverse = tokens.get("r", ["0"])[0]
            position = tokens.get("p", [None])[0]
            # DRF caps the offsets it reads at offset_cutoff and mints at most a page more.
            if not 0 <= offset <= self.offset_cutoff + MAX_PAGE_SIZE or reverse not in "01":
                raise ValueError("bad offset or direction")
            if position is not None:
                _timestamp(position)
        except ValueError:  # binascii.Error and UnicodeError are ValueErrors
            raise NotFound(self.invalid_cursor_message) from None
        return Cursor(
            offset=min(offset, self.offset_cutoff),
            reverse=reverse == "1",
            # The stubs type it int; DRF's position is the text of the ordering field's value.
            position=position,  # type: ignore[arg-type]
        )

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        return [
            {
                "name": self.cursor_query_param,
                "required": False,
                "in": "query",
                "description": "The cursor from the previous page's `next` link.",
                "schema": {"type": "string"},
            },
            {
                "name": "page_size",
                "required": False,
                "in": "query",
                "description": PAGE_SIZE_DESCRIPTION,
                "schema": {"type": "integer", "minimum": 1},
            },
        ]

    def get_paginated_response_schema(self, schema: dict) -> dict:
        return {
            "type": "object",
            "required": ["results", "next"],
            "properties": {
                # OpenAPI 3.1 (JSON Schema 2020-12) types a nullable value; `nullable` is
                # not a keyword there and strict validators refuse it.
                "next": {
                    "type": ["string", "null"],
                    "format": "uri",
                    "description": "The next page (absolute URL), or null on the last one.",
                    # Read by drf-spectacular to wrap a list's examples in a page.
                    "example": None,
                },
                "results": schema,
            },
        }

    def get_paginated_response(self, data: Any) -> Response:
        return Response({"next": self.get_next_link(), "results": data})


@dataclass(frozen=True)
class SortKey:
    """One key of a keyset order: a field (or annotation), its type, its direction."""

    field: str
    kind: type[int] | type[datetime]
    descending: bool = False

    @property
    def order_by(self) -> str:
        return f"-{self.field}" if self.descending else self.field


# A cursor longer than this was not minted here (ours are about 120 characters); short, so
# json.loads never nests deep on a forged one.
_MAX_CURSOR_LENGTH = 256


class KeysetCursor(NewestFirstCursor):
    """Forward-only keyset pagination on ``keys``, whose last key must be unique (the id).

    The cursor is the base64 of a JSON list of the last row's key values; the next page is
    every row strictly after it in the lexicographic order. A row whose keys did not change
    between two pages is therefore listed exactly once, whatever happened to the others.
    """

    keys: tuple[SortKey, ...] = ()

    def paginate_queryset(
        self, queryset: QuerySet[Any, Any] | Sequence[Any], request: Request, view: Any = None
    ) -> list[Any]:
        if not isinstance(queryset, QuerySet):
            raise TypeError("keyset pagination orders and filters a QuerySet")
        self.base_url = request.build_absolute_uri()
        self.page_size = self.get_page_size(request)
        after = self._decode(request.query_params.get(self.cursor_query_param))
        queryset = queryset.order_by(*(key.order_by for key in self.keys))
        if after is not None:
            queryset = queryset.filter(self._after(after))
        rows = list(queryset[: self.page_size + 1])
        self.page = rows[: self.page_size]
        self.has_next = len(rows) > self.page_size
        return self.page

    def get_next_link(self) -> str | None:
        if not self.has_next:
            return None
        # Both set by paginate_queryset, which comes first.
        assert self.page is not None and self.base_url is not None
        last = self.page[-1]
        values = [_json_value(getattr(last, key.field)) for key in self.keys]
        raw = base64.urlsafe_b64encode(json.dumps(values, separators=(",", ":")).encode())
        return replace_query_param(
            self.base_url, self.cursor_query_param, raw.decode("ascii").rstrip("=")
        )

    def _after(self, values: list[Any]) -> Q:
        """Rows after ``values``: k1 beyond v1, or k1 = v1 and (k2 beyond v2, or ...)."""
        pairs = list(zip(self.keys, values, strict=True))
        last_key, last_value = pairs[-1]
        condition = _beyond(last_key, last_value)
        for key, value in reversed(pairs[:-1]):
            condition = _beyond(key, value) | (Q(**{key.field: value}) & condition)
        return condition

    def _decode(self, raw: str | None) -> list[Any] | None:
        if raw is None:
            return None
        try:
            if len(raw) > _MAX_CURSOR_LENGTH:
                raise ValueError("too long")
            text = base64.urlsafe_b64decode(raw.encode("ascii") + b"=" * (-len(raw) % 4))
            values = json.loads(text)
            if not isinstance(values, list) or len(values) != len(self.keys):
                raise ValueError("not a list of the keys")
            return [_key_value(key, value) for key, value in zip(self.keys, values, strict=True)]
        except (ValueError, TypeError):  # binascii.Error and UnicodeError are ValueErrors
            raise NotFound(self.invalid_cursor_message) from None


def _beyond(key: SortKey, value: Any) -> Q:
    return Q(**{f"{key.field}__{'lt' if key.descending else 'gt'}": value})


def _json_value(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, int):
        return value
    raise TypeError(f"cannot put {type(value).__name__} in a cursor")


_BIGINT = 2**63


def _key_value(key: SortKey, value: Any) -> Any:
    if key.kind is datetime:
        return _timestamp(value)
    # bool is an int to Python, not to us; the bounds are the database's bigint.
    if type(value) is not int or not -_BIGINT <= value < _BIGINT:
        raise ValueError(f"{key.field}: not an integer")
    return value


class InboxCursor(KeysetCursor):
    # My turns first, then by deadline, with matches that have none (waiting, over) last on
    # every database; the annotations come from games.selectors.inbox_for.
    keys = (
        SortKey("is_my_turn", int, descending=True),
        SortKey("deadline_order", datetime),
        SortKey("updated_at", datetime, descending=True),
        SortKey("id", int, descending=True),
    )
