"""The problem-details shape (RFC 9457) every error response has, and its content type."""

from __future__ import annotations

from typing import Any

PROBLEM_CONTENT_TYPE = "application/problem+json"
PROBLEM_BASE = "https://baloot.example/problems/"

_TITLES = {
    400: "Bad request",
    401: "Not authenticated",
    403: "Forbidden",
    404: "Not found",
    405: "Method not allowed",
    406: "Not acceptable",
    409: "Conflict",
    413: "Payload too large",
    415: "Unsupported media type",
    422: "Move refused",
    429: "Too many requests",
    500: "Server error",
    503: "Service unavailable",
}


def problem(status_code: int, code: str, detail: str, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "type": PROBLEM_BASE + code,
        "title": _TITLES.get(status_code, "Error"),
        "status": status_code,
        "detail": detail,
        "code": code,
    }
    body.update(extra)
    return body
