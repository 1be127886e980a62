"""Cursor pagination for every list (api.md: ``results`` and an absolute ``next``).

``page_size`` is a positive integer (larger than 100 is capped at 100), anything else a
``400 invalid`` naming it, on every list. ``cursor`` is an opaque token from ``next``; one the
server did not mint is a ``404 not_found`` (DRF's answer, documented on every list).
"""

from typing import Any

from drf_spectacular.utils import OpenApiParameter
from rest_framework.pagination import CursorPagination
from rest_framework.request import Request

from baloot_site.errors import ServiceError

MAX_PAGE_SIZE = 100
PAGE_SIZE_SCHEMA = {
    "type": "integer",
    "minimum": 1,
    "description": f"Items per page, at most {MAX_PAGE_SIZE} (larger values are capped).",
}
PAGE_SIZE = OpenApiParameter(
    "page_size", {"type": "integer", "minimum": 1}, description=PAGE_SIZE_SCHEMA["description"]
)

CURSOR = OpenApiParameter(
    "cursor", str, description="The cursor from the previous page's `next` link."
)


def _invalid(name: str, detail: str) -> ServiceError:
    return ServiceError(
        f"{name}: {detail}",
        code="invalid",
        errors=[{"field": name, "code": "invalid", "detail": detail}],
    )


def page_size_from(request: Request, default: int = MAX_PAGE_SIZE) -> int:
    """The ``page_size`` query parameter: a positive integer, capped at the maximum."""
    raw = request.query_params.get("page_size")
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise _invalid("page_size", "Expected an integer.") from None
    if value < 1:
        raise _invalid("page_size", "Expected a positive integer.")
    return min(value, MAX_PAGE_SIZE)


class NewestFirstCursor(CursorPagination):
    page_size = MAX_PAGE_SIZE
    max_page_size = MAX_PAGE_SIZE
    page_size_query_param = "page_size"
    ordering = "-created_at"
    # The previous link is left out: clients walk forward and refresh from the top.

    def get_page_size(self, request: Request) -> int:
        return page_size_from(request, self.page_size)

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
                "description": PAGE_SIZE_SCHEMA["description"],
                "schema": {"type": "integer", "minimum": 1},
            },
        ]

    def get_paginated_response_schema(self, schema: dict) -> dict:
        return {
            "type": "object",
            "required": ["results", "next"],
            "properties": {
                "next": {"type": "string", "nullable": True, "format": "uri"},
                "results": schema,
            },
        }

    def get_paginated_response(self, data):  # type: ignore[no-untyped-def]
        from rest_framework.response import Response

        return Response({"next": self.get_next_link(), "results": data})


class InboxCursor(NewestFirstCursor):
    # My turns first, then by deadline, with matches that have none (waiting, over) last on
    # every database; the annotations come from games.selectors.inbox_for.
    ordering = ("-is_my_turn", "deadline_order", "-updated_at", "-id")  # type: ignore[assignment]
