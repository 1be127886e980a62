"""Register, login, logout and the password. (The caller's profile and inbox, which need their
matches, and deleting the account are served by ``games.api.me``.)"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import selectors as account_selectors
from accounts import services
from accounts.api.serializers import (
    AuthAnswerSerializer,
    LoginRequestSerializer,
    PasswordChangeRequestSerializer,
    RegisterRequestSerializer,
    new_password_check,
)
from accounts.authentication import request_user
from accounts.models import AuthToken
from core import docs
from core.parsing import refuse_body, validated_body
from core.throttling import AddressRateThrottle, FailOpenScopedRateThrottle

_ANON_ERRORS = docs.only(docs.AUTH_ERRORS, 429, 503)
# Register and login: the per-minute `auth` budget, and the hourly one per client address.
_AUTH_THROTTLES = [FailOpenScopedRateThrottle, AddressRateThrottle]


class RegisterView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []
    throttle_classes = _AUTH_THROTTLES
    throttle_scope = "auth"
    address_throttle_scope = "auth_address"

    @extend_schema(
        operation_id="auth_register",
        request=RegisterRequestSerializer,
        examples=[
            OpenApiExample(
                "Register",
                value={"username": "amal", "password": "a long password", "display_name": "Amal"},
                request_only=True,
            )
        ],
        responses={
            201: AuthAnswerSerializer,
            **docs.errors(
                (400, "Invalid fields (`invalid`)."),
                (409, "The username is taken (`username_taken`)."),
                (
                    422,
                    "A username kept for deleted accounts (`username_reserved`), a display name "
                    "that claims to be a bot (`display_name_reserved`) or draws nothing "
                    "(`invalid_display_name`), or a weak password (`weak_password`); `errors` "
                    "names the fields.",
                ),
                base=_ANON_ERRORS,
            ),
        },
        summary="Create an account and get a token",
    )
    def post(self, request: Request) -> Response:
        data = validated_body(RegisterRequestSerializer, request.data)
        user, token = services.user_register(**data)
        return Response(
            {"token": token, "user": account_selectors.user_json(user)},
            status=status.HTTP_201_CREATED,
        )


class LoginView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []
    throttle_classes = _AUTH_THROTTLES
    throttle_scope = "auth"
    address_throttle_scope = "auth_address"

    @extend_schema(
        operation_id="auth_login",
        request=LoginRequestSerializer,
        examples=[
            OpenApiExample(
                "Log in",
                value={"username": "amal", "password": "a long password"},
                request_only=True,
            )
        ],
        responses={
            200: AuthAnswerSerializer,
            **docs.errors(
                (400, "Invalid fields (`invalid`)."),
                (401, "Wrong username or password (`authentication_failed`)."),
                (403, docs.SANCTIONED),
                (
                    429,
                    "Too many requests (`throttled`), or too many failed logins for this "
                    "account (`login_locked`); see `Retry-After`.",
                ),
                base=_ANON_ERRORS,
            ),
        },
        summary="Get a new bearer token for this device",
    )
    def post(self, request: Request) -> Response:
        data = validated_body(LoginRequestSerializer, request.data)
        user, token = services.user_login(
            # The Django request: axes records the failure on it, for its middleware.
            request=request._request,
            username=data["username"],
            password=data["password"],
            device=data.get("device", ""),
        )
        return Response({"token": token, "user": account_selectors.user_json(user)})


class LogoutView(APIView):
    throttle_scope = "auth"

    @extend_schema(
        operation_id="auth_logout",
        request=None,
        responses={204: None, **docs.errors((400, docs.NO_BODY), base=docs.AUTH_ERRORS)},
        summary="Revoke the token this request was made with",
    )
    def post(self, request: Request) -> Response:
        refuse_body(request.data)
        if isinstance(request.auth, AuthToken):
            services.token_revoke(token=request.auth)
        return Response(status=status.HTTP_204_NO_CONTENT)


# The 429 of the operations that check the account's password: the throttle, or axes' lockout.
LOCKED = (
    429,
    "Too many requests (`throttled`), or too many wrong passwords for this account "
    "(`login_locked`, the lockout of `/auth/login`, which it shares); see `Retry-After`.",
)


class PasswordView(APIView):
    # Checked as a login is: the login's budgets, and wrong old passwords count towards the
    # account's lockout (accounts.services._password_confirm).
    throttle_classes = _AUTH_THROTTLES
    throttle_scope = "auth"
    address_throttle_scope = "auth_address"

    @extend_schema(
        operation_id="me_password_create",
        request=PasswordChangeRequestSerializer,
        examples=[
            OpenApiExample(
                "Change the password",
                value={"old_password": "a long password", "new_password": "a longer password"},
                request_only=True,
            )
        ],
        responses={
            204: None,
            **docs.errors(
                (400, "Invalid fields (`invalid`)."),
                (
                    422,
                    "A wrong old password (`wrong_password`) or a weak new one (`weak_password`).",
                ),
                LOCKED,
                base=docs.AUTH_ERRORS,
            ),
        },
        summary="Change your password; your other devices' tokens are revoked",
        description="The token this request is made with keeps working; every other token of "
        "the account is revoked (those devices sign in again, their streams close).",
    )
    def post(self, request: Request) -> Response:
        user = request_user(request)
        data = validated_body(PasswordChangeRequestSerializer, request.data)
        new_password_check(user, data["new_password"])
        services.password_change(
            request=request._request,
            user=user,
            old_password=data["old_password"],
            new_password=data["new_password"],
            keep=request.auth if isinstance(request.auth, AuthToken) else None,
        )
        return Response(status=status.HTTP_204_NO_CONTENT)
