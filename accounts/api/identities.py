"""Sign in with Apple and Google: ``POST /auth/apple``, ``POST /auth/google`` (sign in, or
link the identity to the signed-in caller's account) and ``DELETE /me/identities/{provider}``.

The ID token is verified first, with no transaction open (it may fetch the provider's keys);
then one service writes (``accounts.identities``)."""

from __future__ import annotations

from typing import Any, ClassVar

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import identities, providers
from accounts import selectors as account_selectors
from accounts.api.serializers import UserViewSerializer
from accounts.authentication import BearerTokenAuthentication, request_user
from accounts.models import Identity, IdentityProvider, User
from core import docs
from core.errors import NotFound
from core.parsing import refuse_body, validated_body
from core.serializers import StrictCharField, StrictRequestSerializer
from core.throttling import AddressRateThrottle, FailOpenScopedRateThrottle


class ProviderSignInRequestSerializer(StrictRequestSerializer):
    id_token = StrictCharField(
        max_length=8192,
        write_only=True,
        help_text="The ID token (a JWT) the provider gave the app.",
    )
    nonce = StrictCharField(
        max_length=256,
        required=False,
        write_only=True,
        help_text="The raw nonce the app generated for this sign-in, when it used one (Apple: "
        "the app passes its SHA-256 to Apple; Google: the nonce itself). Each is good once.",
    )
    display_name = StrictCharField(
        max_length=200,
        required=False,
        help_text="The name the provider gave the app (Apple gives it to the app, on the first "
        "sign-in only). Used only when an account is created, under the display-name rules; "
        "a name they refuse is replaced by a generated one. Default: the token's name, if any.",
    )
    device = StrictCharField(max_length=100, required=False, allow_blank=True)


class IdentitySerializer(serializers.Serializer):
    provider = serializers.ChoiceField(choices=IdentityProvider.choices)
    email = serializers.EmailField(
        allow_null=True, help_text="The address the provider verified, if it gave one."
    )
    linked_at = serializers.DateTimeField()


class ProviderAuthAnswerSerializer(serializers.Serializer):
    token = serializers.CharField(
        allow_null=True,
        help_text="Send as 'Authorization: Bearer <token>'. Null when the request was signed "
        "in: the identity was linked to that account, whose token stays.",
    )
    user = UserViewSerializer()
    created = serializers.BooleanField(help_text="Whether this sign-in created the account.")
    identity = IdentitySerializer()


_SIGN_IN_401 = (
    "An ID token that is not valid (`invalid_id_token`: not a JWT, a bad signature, a key id "
    "the provider does not publish, another issuer), expired (`id_token_expired`), issued for "
    "another app (`wrong_audience`), a nonce that does not match it (`nonce_mismatch`) or "
    "used before (`nonce_reused`); or a bearer token sent that is revoked "
    "(`authentication_failed`)."
)
_SIGN_IN_ERRORS = docs.errors(
    (400, "Invalid fields (`invalid`, `unknown_field`)."),
    (401, _SIGN_IN_401),
    (403, "The account is suspended or banned, as at login."),
    (404, "This server offers no sign-in with this provider (`provider_not_configured`)."),
    (
        409,
        "Signed in: the identity is linked to another account (`identity_in_use`), or yours "
        "is linked to another account of this provider (`provider_already_linked`).",
    ),
    (
        429,
        "Too many requests (`throttled`); see `Retry-After`.",
    ),
    (
        503,
        "The provider's keys cannot be fetched (`provider_unavailable`), or the database is "
        "unavailable (`service_unavailable`); see `Retry-After`.",
    ),
    base={},
)
_SIGN_IN_EXAMPLE = {
    "token": "kq3XbH0f0dn6r5_0J2s2hmW3u2A5qF1bJ9kq3XbH0f0",
    "user": {"id": 42, "username": "player-k7m2p9x4qa", "display_name": "Amal", "avatar": None},
    "created": True,
    "identity": {
        "provider": "apple",
        "email": "amal@privaterelay.appleid.com",
        "linked_at": "2026-12-01T18:00:00Z",
    },
}


class _ProviderSignInView(APIView):
    provider: ClassVar[str]
    permission_classes = [AllowAny]
    # A bearer token, when sent, makes the request a link; no session (the admin's browser).
    authentication_classes = [BearerTokenAuthentication]
    throttle_classes = [FailOpenScopedRateThrottle, AddressRateThrottle]
    throttle_scope = "auth"
    address_throttle_scope = "auth_address"

    def post(self, request: Request) -> Response:
        provider = providers.provider_for(self.provider)
        data = validated_body(ProviderSignInRequestSerializer, request.data)
        # Before any transaction: this may fetch the provider's keys.
        verified = providers.id_token_verify(provider, data["id_token"], data.get("nonce"))
        if isinstance(request.user, User):
            identity = identities.identity_link(user=request.user, verified=verified)
            return Response(_answer(None, request.user, False, identity))
        signed_in = identities.identity_sign_in(
            verified=verified,
            display_name=data.get("display_name", ""),
            device=data.get("device", ""),
        )
        return Response(
            _answer(signed_in.token, signed_in.user, signed_in.created, signed_in.identity),
            status=status.HTTP_201_CREATED if signed_in.created else status.HTTP_200_OK,
        )


def _answer(token: str | None, user: User, created: bool, identity: Identity) -> dict[str, Any]:
    return {
        "token": token,
        "user": account_selectors.user_json(user),
        "created": created,
        "identity": identities.identity_json(identity),
    }


def _sign_in_schema(name: str, label: str, nonce_rule: str) -> Any:
    return extend_schema(
        operation_id=f"auth_{name}_create",
        request=ProviderSignInRequestSerializer,
        examples=[
            OpenApiExample(
                f"Sign in with {label}",
                value={"id_token": "eyJraWQiOiJXNldjT0tC...", "nonce": "a-fresh-random-nonce"},
                request_only=True,
            ),
        ],
        responses={
            200: OpenApiResponse(
                ProviderAuthAnswerSerializer,
                description="Signed in to the account of this identity; or, with a bearer "
                "token, the identity linked to that account (`token` null).",
                examples=[
                    OpenApiExample(
                        "Signed in",
                        value={**_SIGN_IN_EXAMPLE, "created": False},
                        response_only=True,
                        status_codes=[200],
                    )
                ],
            ),
            201: OpenApiResponse(
                ProviderAuthAnswerSerializer,
                description="A new account, with no password, for this identity.",
                examples=[
                    OpenApiExample(
                        "Account created",
                        value=_SIGN_IN_EXAMPLE,
                        response_only=True,
                        status_codes=[201],
                    )
                ],
            ),
            **_SIGN_IN_ERRORS,
        },
        summary=f"Sign in with {label} (or link {label} to your account)",
        description=f"Send the ID token {label} gave the app. Its signature is checked "
        f"against {label}'s published keys, and its issuer, audience (this service's client "
        f"ids), expiry and nonce. {nonce_rule} Without a bearer token: a token for the "
        "account of this identity, created (`201`, no password, a generated username) if it "
        "is new. With one: the identity is linked to that account instead.",
    )


class AppleSignInView(_ProviderSignInView):
    provider = IdentityProvider.APPLE.value

    @_sign_in_schema(
        "apple",
        "Apple",
        "Send the raw `nonce` whose SHA-256 (lowercase hex) the app gave Apple.",
    )
    def post(self, request: Request) -> Response:
        return super().post(request)


class GoogleSignInView(_ProviderSignInView):
    provider = IdentityProvider.GOOGLE.value

    @_sign_in_schema(
        "google", "Google", "Send the `nonce` the app gave Google, which the token repeats."
    )
    def post(self, request: Request) -> Response:
        return super().post(request)


class IdentityView(APIView):
    throttle_scope = "auth"

    @extend_schema(
        operation_id="me_identities_destroy",
        parameters=[
            OpenApiParameter(
                "provider",
                OpenApiTypes.STR,
                OpenApiParameter.PATH,
                enum=[p.value for p in IdentityProvider],
                description="The provider whose identity to unlink.",
            )
        ],
        request=None,
        responses={
            204: None,
            **docs.errors(
                (400, docs.NO_BODY),
                (
                    404,
                    "Your account is not linked to this provider (`identity_not_linked`), or "
                    "no such provider (`not_found`).",
                ),
                (
                    409,
                    "The only way into your account, which has no password "
                    "(`last_sign_in_method`).",
                ),
                base=docs.AUTH_ERRORS,
            ),
        },
        summary="Unlink an Apple or Google sign-in from your account",
        description="Never the last way in: an account without a password keeps its only "
        "linked identity.",
    )
    def delete(self, request: Request, provider: str) -> Response:
        user = request_user(request)
        refuse_body(request.data)
        if provider not in providers.PROVIDERS:
            raise NotFound()
        identities.identity_unlink(user=user, provider=provider)
        return Response(status=status.HTTP_204_NO_CONTENT)
