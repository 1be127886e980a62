"""One error contract for the whole API: RFC 9457 problem details with a stable ``code``.

Every failure — a move the engine refuses, a domain rule, DRF validation, authentication,
throttling, a 404 or a database outage — leaves here as ``application/problem+json``:
``{"type", "title", "status", "detail", "code"}`` plus ``errors`` for validation failures and
any extra fields of the error (``current_version`` for a stale version).
"""

from __future__ import annotations

import importlib
import logging
import sys
from typing import Any

from django.core.exceptions import (
    DisallowedHost,
    PermissionDenied,
    RequestDataTooBig,
    SuspiciousOperation,
)
from django.db import DatabaseError, InterfaceError, OperationalError
from django.http import Http404, HttpRequest, JsonResponse
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler

from core.errors import DomainError, domain_error_classes
from core.i18n import is_english
from core.problems import PROBLEM_CONTENT_TYPE, problem
from games.engine.errors import ALL_ILLEGAL_CODES, REFUSALS, EngineError

log = logging.getLogger(__name__)

PAYLOAD_TOO_LARGE = _("The request body is larger than this server accepts.")
DATABASE_UNAVAILABLE = _("The database is unavailable; retry shortly.")

# The engine is pure (no Django), so its messages are English and often name a seat or a
# value. An answer in another language gives the sentence of the refusal's code, which the
# engine defines (games/engine/errors.py REFUSALS) and the catalog translates.
ENGINE_DETAILS = {code: _(sentence) for code, sentence in REFUSALS.items()}


def engine_detail(exc: EngineError) -> str:
    """The engine's own message in English, the code's translated sentence otherwise."""
    if is_english() or exc.code not in ENGINE_DETAILS:
        return exc.message
    return str(ENGINE_DETAILS[exc.code])


# The codes this module (and DRF, Django and axes through it) answers with on its own; the
# domain's codes come from the DomainError classes, the move refusals from the engine.
FRAMEWORK_CODES = frozenset(
    {
        "malformed",
        "invalid",
        "parse_error",
        "bad_request",
        "invalid_host",
        "payload_too_large",
        "csrf_failed",
        "not_authenticated",
        "authentication_failed",
        "account_suspended",
        "account_banned",
        "permission_denied",
        "not_found",
        "method_not_allowed",
        "not_acceptable",
        "unsupported_media_type",
        "throttled",
        "login_locked",
        "service_unavailable",
        "server_error",
    }
)


# Field checks the schema cannot state: a password on Django's list of common ones, a display
# name that claims to be a bot or draws nothing once normalised. A body whose only faults are
# these is well formed and refused: 422 with the code named here (the first field's, when
# several fail), ``errors`` naming each field as a 400 would. 400 stays for what the schema
# forbids (api.md). Keyed by the top-level field and the field error's code.
REFUSED_FIELDS: dict[tuple[str, str], str] = {
    ("username", "reserved"): "username_reserved",
    ("display_name", "reserved"): "display_name_reserved",
    ("display_name", "invalid_character"): "invalid_display_name",
    ("display_name", "no_visible_characters"): "invalid_display_name",
    ("display_name", "too_long_normalised"): "invalid_display_name",
    # Django's password validators, but the length: that one is the schema's minLength.
    ("password", "password_too_common"): "weak_password",
    ("password", "password_too_similar"): "weak_password",
    ("password", "password_entirely_numeric"): "weak_password",
    ("new_password", "password_too_common"): "weak_password",
    ("new_password", "password_too_similar"): "weak_password",
    ("new_password", "password_entirely_numeric"): "weak_password",
    # More projects than any declaration holds (games/api/serializers/moves.py MAX_PROJECTS).
    ("projects", "max_length"): "invalid_project",
}


def refusal_code(errors: list[dict[str, str]]) -> str | None:
    """The 422 code of field errors that are all refusals (``REFUSED_FIELDS``), else None."""
    codes = [REFUSED_FIELDS.get((e["field"].split(".")[0], e["code"])) for e in errors]
    if not codes or None in codes:
        return None
    return codes[0]


def published_codes() -> list[str]:
    """Every code the API can answer with; published as the ErrorCodeEnum schema component."""
    # Importing the apps' error modules registers their DomainError subclasses.
    for module in ("accounts.errors", "games.errors", "moderation.errors", "players.errors"):
        importlib.import_module(module)
    domain = {cls.code for cls in domain_error_classes()}
    refused = set(REFUSED_FIELDS.values())
    return sorted(domain | set(ALL_ILLEGAL_CODES) | FRAMEWORK_CODES | refused)


ERROR_CODES = published_codes()


def _field_errors(detail: Any, prefix: str = "") -> list[dict[str, str]]:
    """Flatten DRF's nested validation errors into ``[{"field", "code", "detail"}]``."""
    out: list[dict[str, str]] = []
    if isinstance(detail, dict):
        for key, value in detail.items():
            name = f"{prefix}.{key}" if prefix else str(key)
            if key == "non_field_errors":
                name = prefix or "body"
            out.extend(_field_errors(value, name))
    elif isinstance(detail, list):
        for index, value in enumerate(detail):
            if isinstance(value, dict | list):
                out.extend(_field_errors(value, f"{prefix}[{index}]"))
            else:
                out.extend(_field_errors(value, prefix))
    else:
        code = getattr(detail, "code", "invalid") or "invalid"
        out.append({"field": prefix or "body", "code": str(code), "detail": str(detail)})
    return out


_DRF_CODES = {
    exceptions.NotAuthenticated: "not_authenticated",
    exceptions.AuthenticationFailed: "authentication_failed",
    exceptions.PermissionDenied: "permission_denied",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.NotAcceptable: "not_acceptable",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.Throttled: "throttled",
    exceptions.ParseError: "parse_error",
}


def problem_response(
    status_code: int,
    code: str,
    detail: str | Promise,
    headers: dict[str, str] | None = None,
    **extra: Any,
) -> Response:
    return Response(
        problem(status_code, code, detail, **extra),
        status=status_code,
        headers=headers,
        content_type=PROBLEM_CONTENT_TYPE,
    )


def problem_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, DomainError):
        retry = None if exc.retry_after is None else {"Retry-After": str(exc.retry_after)}
        return problem_response(exc.status, exc.code, exc.detail, headers=retry, **exc.extra)
    if isinstance(exc, EngineError):
        # A malformed move is a bad body (400); a well-formed move the rules refuse is 422.
        message = engine_detail(exc)
        if exc.code == "malformed":
            return problem_response(
                400,
                "malformed",
                message,
                errors=[{"field": "body", "code": "malformed", "detail": message}],
            )
        return problem_response(422, exc.code, message)
    if isinstance(exc, RequestDataTooBig):
        # A body that grew past the limit while being read (no Content-Length up front).
        return problem_response(413, "payload_too_large", PAYLOAD_TOO_LARGE)
    if isinstance(exc, OperationalError | InterfaceError):
        log.warning("database unavailable: %s", exc.__class__.__name__)
        return problem_response(
            503, "service_unavailable", DATABASE_UNAVAILABLE, headers={"Retry-After": "2"}
        )
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()

    response = exception_handler(exc, context)
    if response is None:
        if isinstance(exc, DatabaseError):
            log.exception("database error")
            return problem_response(503, "service_unavailable", _("Temporary database error."))
        return None
    assert isinstance(exc, exceptions.APIException)
    headers = {k: v for k, v in response.items() if k in ("Retry-After", "WWW-Authenticate")}
    if isinstance(exc, exceptions.ValidationError):
        errors = _field_errors(exc.detail)
        refused = refusal_code(errors)
        if refused is not None:
            return problem_response(422, refused, errors[0]["detail"], errors=errors)
        return problem_response(
            400, "invalid", _("The request body is not valid."), headers=headers, errors=errors
        )
    code = next((c for cls, c in _DRF_CODES.items() if isinstance(exc, cls)), None)
    if code is None:
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else "invalid"
    detail = exc.detail if isinstance(exc.detail, str) else str(exc.detail)
    extra: dict[str, Any] = {}
    if isinstance(exc, exceptions.ParseError):
        # A 400 always lists what is wrong with the body (api.md), unparsable JSON included.
        extra["errors"] = [{"field": "body", "code": "parse_error", "detail": str(detail)}]
    return problem_response(response.status_code, str(code), str(detail), headers=headers, **extra)


def _json_problem(status_code: int, code: str, detail: str | Promise) -> JsonResponse:
    return JsonResponse(
        problem(status_code, code, detail), status=status_code, content_type=PROBLEM_CONTENT_TYPE
    )


def payload_too_large() -> JsonResponse:
    return _json_problem(413, "payload_too_large", PAYLOAD_TOO_LARGE)


def bad_request(detail: str | Promise) -> JsonResponse:
    return _json_problem(400, "bad_request", detail)


_BARE_STATUS = {
    400: ("bad_request", _("The request is malformed.")),
    403: ("permission_denied", _("You may not do this.")),
    404: ("not_found", _("No such resource.")),
    405: ("method_not_allowed", _("This method is not allowed here.")),
    406: ("not_acceptable", _("No acceptable representation.")),
    413: ("payload_too_large", PAYLOAD_TOO_LARGE),
    415: ("unsupported_media_type", _("Unsupported media type.")),
}


def bare_status_problem(status_code: int) -> JsonResponse | None:
    """The problem for an error status Django answered with an empty body, if we name it."""
    if status_code not in _BARE_STATUS:
        return None
    return _json_problem(status_code, *_BARE_STATUS[status_code])


def handler400(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    # Django answers its SuspiciousOperation family (a Host not in ALLOWED_HOSTS, a body or
    # form past the upload limits, a malformed multipart body) and BadRequest through here,
    # outside DRF's handler, so they get the problem shape too.
    if isinstance(exception, RequestDataTooBig):
        return payload_too_large()
    if isinstance(exception, DisallowedHost):
        return _json_problem(400, "invalid_host", _("The Host header names no site served here."))
    if isinstance(exception, SuspiciousOperation):
        return _json_problem(400, "bad_request", _("The request was refused as malformed."))
    return _json_problem(400, "bad_request", _("The request is malformed."))


def handler403(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return _json_problem(403, "permission_denied", _("You may not do this."))


def csrf_failure(request: HttpRequest, reason: str = "") -> JsonResponse:
    """CSRF_FAILURE_VIEW: the admin's forms (the API's bearer clients never meet CSRF)."""
    return _json_problem(403, "csrf_failed", _("CSRF verification failed; reload the form."))


def handler404(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return _json_problem(404, "not_found", _("No such resource."))


def handler500(request: HttpRequest) -> JsonResponse:
    # Django calls this while handling the uncaught exception, so it is still in
    # sys.exc_info(). A database outage outside DRF's handler (the admin, sessions, any
    # middleware) is the same temporary 503 as inside it, not a server error.
    if isinstance(sys.exc_info()[1], OperationalError | InterfaceError):
        log.warning("database unavailable: %s", sys.exc_info()[1].__class__.__name__)
        response = _json_problem(503, "service_unavailable", DATABASE_UNAVAILABLE)
        response["Retry-After"] = "2"
        return response
    return _json_problem(500, "server_error", _("Something went wrong on our side."))
