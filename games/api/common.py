"""Helpers every match endpoint shares: the path's match id, query integers, ETags."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter
from rest_framework.request import Request
from rest_framework.response import Response

from core.errors import InvalidInput
from core.parsing import ascii_integer
from games import selectors
from games.api import bodies
from games.errors import MatchNotFound

MATCH_ID = OpenApiParameter("id", int, OpenApiParameter.PATH, description="Match id.")


def etag_header(*statuses: int) -> OpenApiParameter:
    """The ``ETag`` response header of the answers (by status) that carry a match view."""
    return OpenApiParameter(
        "ETag",
        str,
        OpenApiParameter.HEADER,
        response=list(statuses),
        description=(
            "The match version as this caller sees it; send it back in If-None-Match "
            "for a 304 until the match changes."
        ),
    )


IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    str,
    OpenApiParameter.HEADER,
    description="An ETag from an earlier answer: 304 (no body) while it is still current.",
)


def view_response(viewed: selectors.ViewedMatch, status_code: int = 200) -> Response:
    """The match view of ``viewed``'s viewer, with its ETag."""
    body = bodies.match_view(viewed)
    return Response(body, status=status_code, headers={"ETag": etag(viewed)})


def etag(viewed: selectors.ViewedMatch) -> str:
    return selectors.etag_for(viewed.header.id, viewed.header.version, viewed.seat_index)


def match_pk(value: str) -> int:
    """The path's match id; anything that is not one is the same 404 as a missing match."""
    try:
        pk = int(value)
    except (TypeError, ValueError):
        raise MatchNotFound() from None
    if pk <= 0 or pk > 2**62:
        raise MatchNotFound()
    return pk


def int_param(request: Request, name: str, default: int) -> int:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    value = ascii_integer(raw)
    if value is None:
        raise InvalidInput(
            _("%(name)s must be an integer.") % {"name": name},
            errors=[{"field": name, "code": "invalid", "detail": _("Expected an integer.")}],
        )
    if value < 0 or value > 2**62:
        raise InvalidInput(
            _("%(name)s is out of range.") % {"name": name},
            errors=[{"field": name, "code": "invalid", "detail": _("Out of range.")}],
        )
    return value


def if_none_match(request: Request) -> set[str]:
    header = request.headers.get("If-None-Match", "")
    return {tag.strip() for tag in header.split(",") if tag.strip()}
