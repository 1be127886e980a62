"""Failed-login lockouts (django-axes) answered in the API's problem shape.

After ``AXES_FAILURE_LIMIT`` wrong passwords for one username, axes refuses that username for
``AXES_COOLOFF_TIME``, on ``POST /auth/login`` and on the admin's login page alike. Both answer
``429`` with code ``login_locked`` and ``Retry-After``: the API view raises ``LoginLocked``, and
axes' middleware calls ``lockout_response`` (``AXES_LOCKOUT_CALLABLE``) for any login it saw
locked out, the admin's included.
"""

from __future__ import annotations

import math
from typing import Any

from axes.helpers import get_client_username
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Max
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions

from core.problems import PROBLEM_CONTENT_TYPE, problem

CODE = "login_locked"
DETAIL = _("Too many failed logins for this account; try again later.")


def retry_after(username: str | None) -> int:
    """Seconds until ``username`` may try again: one cool-off after its latest recorded
    failure (failures during a lockout are not recorded, so the lockout cannot be extended).
    With failures spread over several records this is an upper bound, never too early."""
    cool_off = settings.AXES_COOLOFF_TIME
    latest = AccessAttempt.objects.filter(username=username).aggregate(at=Max("attempt_time"))
    if latest["at"] is None:
        return math.ceil(cool_off.total_seconds())
    remaining = (latest["at"] + cool_off - timezone.now()).total_seconds()
    return max(1, math.ceil(remaining))


class LoginLocked(exceptions.APIException):
    """``429 login_locked``; DRF's handler turns ``wait`` into ``Retry-After``."""

    status_code = 429

    def __init__(self, username: str | None) -> None:
        super().__init__(DETAIL, code=CODE)
        self.wait = retry_after(username)


def lockout_response(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponse:
    """axes' lockout answer. The API's login view has already answered ``login_locked``
    (keep that); anything else, such as the admin's login form, is replaced by the same
    problem, so a correct password after the limit still gets no session."""
    data = getattr(original_response, "data", None)
    if original_response is not None and isinstance(data, dict) and data.get("code") == CODE:
        return original_response
    response = JsonResponse(
        problem(429, CODE, DETAIL), status=429, content_type=PROBLEM_CONTENT_TYPE
    )
    response["Retry-After"] = str(retry_after(get_client_username(request, credentials)))
    return response
