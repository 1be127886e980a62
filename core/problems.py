"""The problem-details shape (RFC 9457) every error response has, and its content type."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

PROBLEM_CONTENT_TYPE = "application/problem+json"
PROBLEM_BASE = "https://baloot.example/problems/"

# Titles by status, the same for every code of that status (api.md's error contract).
_TITLES = {
    400: _("Bad request"),
    401: _("Not authenticated"),
    403: _("Forbidden"),
    404: _("Not found"),
    405: _("Method not allowed"),
    406: _("Not acceptable"),
    409: _("Conflict"),
    413: _("Payload too large"),
    415: _("Unsupported media type"),
    422: _("Request refused"),
    429: _("Too many requests"),
    500: _("Server error"),
    503: _("Service unavailable"),
}


def problem_titles() -> dict[int, Any]:
    """The title of each status (lazy texts; the translation test walks them)."""
    return dict(_TITLES)


def problem(status_code: int, code: str, detail: object, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "type": PROBLEM_BASE + code,
        # Rendered here, in the request's language (core.i18n); ``code`` and ``type`` never change.
        "title": str(_TITLES.get(status_code, _("Error"))),
        "status": status_code,
        "detail": str(detail),
        "code": code,
    }
    body.update(extra)
    return body
