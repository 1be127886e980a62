"""Cursor pagination for every list (api.md: ``results`` and an absolute ``next``)."""

from rest_framework.pagination import CursorPagination


class NewestFirstCursor(CursorPagination):
    page_size = 100
    max_page_size = 100
    page_size_query_param = "page_size"
    ordering = "-created_at"
    # The previous link is left out: clients walk forward and refresh from the top.

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
    ordering = ("-is_my_turn", "deadline", "-updated_at", "-id")
