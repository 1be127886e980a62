"""The caller's own pages: their profile with statistics (read, edited, deleted), and their
inbox of matches.

They live with the games, not the accounts, because both are about the caller's matches;
the accounts app knows nothing of games. Editing and deleting are accounts' services; what a
deletion means for the caller's matches is ``games.services.departures``, which listens.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils import translation
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
)
from rest_framework import status
from rest_framework.authentication import BaseAuthentication, SessionAuthentication
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from accounts import recovery
from accounts import selectors as account_selectors
from accounts import services as account_services
from accounts.api.serializers import (
    AccountDeleteRequestSerializer,
    ProfileUpdateRequestSerializer,
)
from accounts.api.throttling import throttle_key
from accounts.api.views import LOCKED
from accounts.authentication import BearerTokenAuthentication, request_user
from accounts.identities import account_delete_by_sign_in, identities_json
from accounts.models import User
from core import docs
from core.i18n import language_activate, preferred_language
from core.parsing import validated_body
from core.throttling import AddressRateThrottle, FailOpenScopedRateThrottle
from games import selectors
from games.api import bodies
from games.api import examples as ex
from games.api.common import if_none_match
from games.api.pagination import CURSOR, PAGE_SIZE, InboxCursor
from games.api.serializers import InboxEntrySerializer, MeSerializer
from games.selectors.stats import player_stats


def profile_json(user: User) -> dict[str, Any]:
    return {
        **account_selectors.user_json(user),
        "language": user.language or None,
        # Only a verified address is the account's; the one waiting for its code is apart.
        "email": user.email if user.email_verified_at is not None else None,
        "email_pending": recovery.email_pending(user),
        "show_presence": user.show_presence,
        "date_joined": user.date_joined,
        "stats": player_stats(user),
        "identities": identities_json(user),
    }


class _DeleteWithBodySchema(AutoSchema):
    """drf-spectacular documents a body for POST, PUT and PATCH only; ``DELETE /me`` takes
    one (the password confirming it), which OpenAPI allows and the clients send."""

    def _get_request_body(self, direction: str = "request") -> Any:
        if self.method != "DELETE":
            return super()._get_request_body(direction)
        self.method = "POST"
        try:
            return super()._get_request_body(direction)
        finally:
            self.method = "DELETE"


class MeView(APIView):
    schema = _DeleteWithBodySchema()
    _deleting = False

    def initialize_request(self, request: HttpRequest, *args: Any, **kwargs: Any) -> Request:
        # Which authenticators apply depends on the method (see get_authenticators), and DRF
        # asks for them before the view knows the request.
        self._deleting = request.method == "DELETE"
        return super().initialize_request(request, *args, **kwargs)

    def get_authenticators(self) -> list[BaseAuthentication]:
        if self._deleting:
            # A suspended or banned player may still delete their account (app stores
            # require in-app deletion of any account); nothing else.
            return [BearerTokenAuthentication(refuse_sanctioned=False), SessionAuthentication()]
        return super().get_authenticators()

    @property
    def throttle_scope(self) -> str:
        # Reads and edits share the reads budget; a deletion, which checks the password,
        # has the login's (and its per-address one).
        return "auth" if self._deleting else "reads"

    address_throttle_scope = "auth_address"

    def get_throttles(self) -> list[BaseThrottle]:
        if self._deleting:
            return [FailOpenScopedRateThrottle(), AddressRateThrottle()]
        return super().get_throttles()

    @extend_schema(
        operation_id="me_retrieve",
        responses={200: MeSerializer, **docs.AUTH_ERRORS},
        summary="Your profile and statistics",
    )
    def get(self, request: Request) -> Response:
        return Response(profile_json(request_user(request)))

    @extend_schema(
        operation_id="me_partial_update",
        request=ProfileUpdateRequestSerializer,
        examples=[
            OpenApiExample(
                "Rename and read Arabic",
                value={"display_name": "أمل", "language": "ar"},
                request_only=True,
            ),
            OpenApiExample(
                "Follow Accept-Language again", value={"language": None}, request_only=True
            ),
            OpenApiExample(
                "Hide your presence from your followers",
                value={"show_presence": False},
                request_only=True,
            ),
            OpenApiExample(
                "Choose a built-in avatar", value={"avatar": "dallah"}, request_only=True
            ),
            OpenApiExample(
                "Set an email address (a code is mailed to it)",
                value={"email": "amal@example.com"},
                request_only=True,
            ),
        ],
        responses={
            200: MeSerializer,
            **docs.errors(
                (
                    400,
                    "Invalid fields: an unknown language or avatar, an invalid email address, "
                    "a `show_presence` that is not `true` or `false` (`invalid`).",
                ),
                (
                    422,
                    "A display name that claims to be a bot (`display_name_reserved`) or draws "
                    "nothing (`invalid_display_name`).",
                ),
                (
                    429,
                    "Too many requests (`throttled`), or too many verification mails asked "
                    "for (`RATE_EMAIL_SEND`); see `Retry-After`.",
                ),
                base=docs.AUTH_ERRORS,
            ),
        },
        summary="Change your display name, language, email address, presence or avatar",
        description="Only the fields sent change. Seats show the new name from now on, in "
        "running and finished matches alike. The answer is in the language it sets (`null`: "
        "the `Accept-Language` one). A new `email` is not yours yet: a six-digit code is "
        "mailed to it (in your language), the answer shows it as `email_pending`, and "
        "`POST /me/email/verify` with the code makes it your `email`. `email: null` removes "
        "your address. `show_presence: false` hides your presence from the players who "
        "follow you (`GET /me/friends` shows you `offline`, with no `last_seen`). `avatar`: a "
        "built-in avatar's id (GET /avatars), in place of your avatar (an uploaded picture is "
        "deleted), or `null` for none; upload a picture with PUT /me/avatar.",
    )
    def patch(self, request: Request) -> Response:
        user = request_user(request)
        data = validated_body(ProfileUpdateRequestSerializer, request.data)
        email_sent = "email" in data
        email = data.pop("email", None)
        if email_sent and recovery.email_change_sends(user=user, email=email):
            # Before anything changes: a refused request changes nothing.
            throttle_key(request, self, "email_send", str(user.pk))
        updated = account_services.profile_update(user=user, **data)
        if "language" in data:
            # The answer is in the language just set (authentication switched on the old one);
            # cleared, it follows Accept-Language again, as the next request will.
            header = request.META.get("HTTP_ACCEPT_LANGUAGE", "")
            language_activate(request, preferred_language(updated.language, header))
        if email_sent:
            # The mail is in the answer's language, which is the account's if it has one.
            recovery.email_change(
                user=updated, email=email, language=translation.get_language() or "en"
            )
            updated.refresh_from_db()
        return Response(profile_json(updated))

    @extend_schema(
        operation_id="me_destroy",
        request=AccountDeleteRequestSerializer,
        examples=[
            OpenApiExample(
                "Delete my account", value={"password": "a long password"}, request_only=True
            ),
            OpenApiExample(
                "Delete an account made by Sign in with Apple",
                value={"provider": "apple", "id_token": "eyJraWQiOi...", "nonce": "a-fresh-nonce"},
                request_only=True,
            ),
        ],
        responses={
            204: None,
            **docs.errors(
                (400, "Invalid fields (`invalid`)."),
                (
                    422,
                    "A wrong password (`wrong_password`), or a sign-in that is not one of the "
                    "account's (`wrong_identity`).",
                ),
                (
                    401,
                    "Not authenticated (`not_authenticated`, `authentication_failed`), or the "
                    "confirming sign-in's ID token refused (`invalid_id_token`, "
                    "`id_token_expired`, `wrong_audience`, `nonce_mismatch`, `nonce_reused`).",
                ),
                (404, "No sign-in with this provider here (`provider_not_configured`)."),
                LOCKED,
                (
                    503,
                    "The database is unavailable (`service_unavailable`), or the provider's "
                    "keys cannot be fetched (`provider_unavailable`); retry.",
                ),
                base={},
            ),
        },
        summary="Delete your account",
        description="Your personal data is erased and every token revoked (open streams "
        "close). Seats in waiting matches are freed; seats in running matches go to a bot "
        "for good; finished matches keep their records, your seat shown as `deleted-<id>`. "
        "Other players' statistics do not change. A suspended or banned account may be "
        "deleted too. Your username becomes free to register again. An account without a "
        "password (made by signing in with Apple or Google) confirms with a fresh sign-in "
        "with one of its identities instead.",
    )
    def delete(self, request: Request) -> Response:
        user = request_user(request)
        data = validated_body(AccountDeleteRequestSerializer, request.data)
        if "password" in data:
            account_services.account_delete(
                request=request._request, user=user, password=data["password"]
            )
        else:
            account_delete_by_sign_in(
                user=user,
                provider=data["provider"],
                id_token=data["id_token"],
                nonce=data.get("nonce"),
            )
        return Response(status=status.HTTP_204_NO_CONTENT)


class InboxView(GenericAPIView):
    throttle_scope = "reads"
    pagination_class = InboxCursor
    serializer_class = InboxEntrySerializer

    @extend_schema(
        operation_id="me_matches_list",
        parameters=[
            CURSOR,
            PAGE_SIZE,
            OpenApiParameter(
                "If-None-Match",
                str,
                OpenApiParameter.HEADER,
                description="The ETag of this page from an earlier answer: 304 while unchanged.",
            ),
            OpenApiParameter(
                "ETag",
                str,
                OpenApiParameter.HEADER,
                response=[200, 304],
                description="Identifies this page of your inbox as it is now.",
            ),
        ],
        responses={
            200: OpenApiResponse(InboxEntrySerializer(many=True), examples=[ex.INBOX]),
            304: OpenApiResponse(description="Unchanged since the ETag sent in If-None-Match."),
            **docs.errors(
                (400, "Bad `page_size` (`invalid`)."),
                (404, "A `cursor` that did not come from a `next` link (`not_found`)."),
                base=docs.AUTH_ERRORS,
            ),
        },
        summary="Your matches: your turn first, then by deadline",
    )
    def get(self, request: Request) -> Response | HttpResponse:
        user = request_user(request)
        page = self.paginate_queryset(selectors.inbox_for(user))
        assert page is not None
        response = self.get_paginated_response(bodies.match_summaries(page, user))
        # The page's own content names it: every change that moves a match in the inbox
        # (a move, a deadline, a seat going away, a name) changes the rendered page.
        tag = selectors.inbox_etag(response.data)
        if tag in if_none_match(request):
            return HttpResponse(status=304, headers={"ETag": tag})
        response["ETag"] = tag
        return response
