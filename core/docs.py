"""Shared OpenAPI documentation: every operation lists the errors it can answer with.

Errors are documented under the media type they are served with, ``application/problem+json``
(RFC 9457), so a client generated from the schema and a contract checker both see the truth.
Response keys are ``(status, media type)`` pairs, as drf-spectacular accepts them.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse

from core.problems import PROBLEM_CONTENT_TYPE
from core.serializers import ProblemSerializer

ErrorResponses = dict[tuple[int, str], OpenApiResponse]


def problem(description: str) -> OpenApiResponse:
    return OpenApiResponse(response=ProblemSerializer, description=description)


def problem_key(status: int) -> tuple[int, str]:
    return (status, PROBLEM_CONTENT_TYPE)


SANCTIONED = "Your account is suspended or banned (`account_suspended`, `account_banned`)."
AUTH_ERRORS: ErrorResponses = {
    problem_key(401): problem("Not authenticated (`not_authenticated`, `authentication_failed`)."),
    problem_key(403): problem(SANCTIONED),
    problem_key(429): problem("Too many requests (`throttled`); see `Retry-After`."),
    problem_key(503): problem("The database is unavailable (`service_unavailable`); retry."),
}
# The 400 of an operation that takes no body (core.parsing.refuse_body).
NO_BODY = "A body with fields; this operation takes none (`invalid`, `unknown_field`)."
MATCH_ERRORS: ErrorResponses = {
    **AUTH_ERRORS,
    problem_key(404): problem("No such match, or a private match you do not sit in (`not_found`)."),
}


def only(base: ErrorResponses, *statuses: int) -> ErrorResponses:
    """The entries of ``base`` for these statuses."""
    return {key: value for key, value in base.items() if key[0] in statuses}


def errors(*extra: tuple[int, str], base: ErrorResponses | None = None) -> ErrorResponses:
    out = dict(MATCH_ERRORS if base is None else base)
    for status, description in extra:
        if status == 403 and SANCTIONED not in description:
            description = f"{description} {SANCTIONED}"
        out[problem_key(status)] = problem(description)
    return dict(sorted(out.items()))
