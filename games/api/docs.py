"""Shared OpenAPI documentation: every operation lists the errors it can answer with."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse

from games.api.serializers import ProblemSerializer


def problem(description: str) -> OpenApiResponse:
    return OpenApiResponse(response=ProblemSerializer, description=description)


SANCTIONED = "Your account is suspended or banned (`account_suspended`, `account_banned`)."
AUTH_ERRORS = {
    401: problem("Not authenticated (`not_authenticated`, `authentication_failed`)."),
    403: problem(SANCTIONED),
    429: problem("Too many requests (`throttled`); see `Retry-After`."),
    503: problem("The database is unavailable (`service_unavailable`); retry."),
}
MATCH_ERRORS = {
    **AUTH_ERRORS,
    404: problem("No such match, or a private match you do not sit in (`not_found`)."),
}


def errors(*extra: tuple[int, str], base: dict | None = None) -> dict:
    out = dict(MATCH_ERRORS if base is None else base)
    for status, description in extra:
        if status == 403 and SANCTIONED not in description:
            description = f"{description} {SANCTIONED}"
        out[status] = problem(description)
    return out
