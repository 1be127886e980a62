"""Password reset by a mailed code, for a player who cannot sign in, and the body of
``POST /me/email/verify`` (served by ``games.api.me_email`` next to the profile it answers).

No enumeration: ``POST /auth/password-reset`` answers ``202`` with no body whoever it names,
and does the same work either way (it queues one task; the task finds the account and mails
it, or finds nothing). Budgets: per client address for both operations
(``password_reset_address``), per login for the mails asked (``password_reset``) and for the
codes tried (``email_code``), each counted whether or not the login names anyone.
"""

from __future__ import annotations

import logging

from django.utils import translation
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import recovery, tasks
from accounts.api.serializers import new_password_check
from accounts.api.throttling import throttle_key
from core import docs
from core.parsing import validated_body
from core.serializers import StrictCharField, StrictRequestSerializer
from core.throttling import AddressRateThrottle

log = logging.getLogger(__name__)

_ANON_ERRORS = docs.only(docs.AUTH_ERRORS, 429, 503)
INVALID_CODE = (
    422,
    "The code is wrong, used, replaced by a newer one, expired, or tried too many times "
    "(`invalid_code`): ask for a new one.",
)


def _code_field() -> StrictCharField:
    return StrictCharField(
        max_length=32,
        help_text="The six digits of the mail (spaces are ignored).",
    )


class EmailVerifyRequestSerializer(StrictRequestSerializer):
    code = _code_field()


class PasswordResetRequestSerializer(StrictRequestSerializer):
    login = StrictCharField(
        max_length=254, help_text="Your username, or the email address you verified."
    )


class PasswordResetConfirmRequestSerializer(StrictRequestSerializer):
    login = StrictCharField(max_length=254, help_text="As sent to `/auth/password-reset`.")
    code = _code_field()
    new_password = StrictCharField(min_length=8, max_length=128, write_only=True)


def _login_key(login: str) -> str:
    # One budget per login however it is spelled: usernames and addresses match in any case.
    return login.strip().casefold()


class _ResetBase(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []
    throttle_classes = [AddressRateThrottle]
    address_throttle_scope = "password_reset_address"


class PasswordResetView(_ResetBase):
    @extend_schema(
        operation_id="auth_password_reset_create",
        request=PasswordResetRequestSerializer,
        examples=[
            OpenApiExample("By username", value={"login": "amal"}, request_only=True),
            OpenApiExample("By address", value={"login": "amal@example.com"}, request_only=True),
        ],
        responses={
            202: None,
            **docs.errors((400, "Invalid fields (`invalid`)."), base=_ANON_ERRORS),
        },
        summary="Mail a password reset code",
        description="If `login` is the username or the verified email address of an account "
        "that has a verified address, a six-digit code is mailed there, valid once for "
        "`EMAIL_CODE_TTL_MINUTES` (30 by default); a new request replaces the previous code. "
        "The answer is `202` with no body in every case, so it tells nobody whether such an "
        "account exists. Rate limited per client address and per login.",
    )
    def post(self, request: Request) -> Response:
        data = validated_body(PasswordResetRequestSerializer, request.data)
        throttle_key(request, self, "password_reset", _login_key(data["login"]))
        # The account is looked up by the task, not here: this answer takes the same time
        # whether the login names someone or not.
        language = translation.get_language() or "en"
        try:
            tasks.password_reset_mail.apply_async((data["login"], language))
        except Exception as exc:  # the broker refused it; the player asks again
            log.warning("password reset mail not queued (%s)", exc.__class__.__name__)
        return Response(status=status.HTTP_202_ACCEPTED)


class PasswordResetConfirmView(_ResetBase):
    @extend_schema(
        operation_id="auth_password_reset_confirm_create",
        request=PasswordResetConfirmRequestSerializer,
        examples=[
            OpenApiExample(
                "Set a new password",
                value={"login": "amal", "code": "042917", "new_password": "a new long password"},
                request_only=True,
            )
        ],
        responses={
            204: None,
            **docs.errors(
                (400, "Invalid fields (`invalid`)."),
                (422, f"{INVALID_CODE[1]} A weak new password is `weak_password`."),
                base=_ANON_ERRORS,
            ),
        },
        summary="Set a new password with the mailed code",
        description="Sets the password (the registration's password rules), uses up the "
        "code, revokes every token of the account (every device signs in again, open "
        "streams close) and lifts a lockout from wrong passwords. A login that names no "
        "account is `422 invalid_code` too. A suspended or banned account's password is "
        "set, but signing in is still refused while the sanction lasts.",
    )
    def post(self, request: Request) -> Response:
        data = validated_body(PasswordResetConfirmRequestSerializer, request.data)
        # Guesses are counted per login, named or not, before anything is looked up.
        throttle_key(request, self, "email_code", f"reset:{_login_key(data['login'])}")
        user, row = recovery.password_reset_check(login=data["login"], code=data["code"])
        new_password_check(user, data["new_password"])  # a weak password keeps the code
        recovery.password_reset_finish(user=user, row=row, new_password=data["new_password"])
        return Response(status=status.HTTP_204_NO_CONTENT)
