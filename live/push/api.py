"""Push targets and preferences: ``/me/devices`` and ``/me/notifications``."""

from __future__ import annotations

import base64
import binascii
import re
from typing import Any

from django.conf import settings
from django.utils.translation.trans_real import parse_accept_lang_header
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core import docs
from core.parsing import refuse_body, validated_body
from core.serializers import StrictCharField, StrictRequestSerializer
from live.push import services
from live.push.kinds import EventKind
from live.push.models import Device, Language, Platform

_TOKEN = re.compile(r"^[A-Za-z0-9_:\-.]{8,4096}$")
_APNS_TOKEN = re.compile(r"^[0-9a-fA-F]{64,200}$")


def _b64url(value: str, length: int, field: str) -> str:
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raise serializers.ValidationError({field: "Not base64url."}) from None
    if len(raw) != length:
        raise serializers.ValidationError({field: f"Must decode to {length} bytes."})
    return value


class SubscriptionKeysSerializer(StrictRequestSerializer):
    p256dh = StrictCharField(max_length=200, help_text="The browser's P-256 public key.")
    auth = StrictCharField(max_length=64, help_text="The browser's auth secret.")


class SubscriptionSerializer(StrictRequestSerializer):
    """The browser's ``PushSubscription.toJSON()``."""

    endpoint = StrictCharField(max_length=1024)
    keys = SubscriptionKeysSerializer()
    expirationTime = serializers.IntegerField(required=False, allow_null=True)

    def validate_endpoint(self, value: str) -> str:
        schemes = ("https://", "http://") if settings.WEBPUSH_ALLOW_HTTP else ("https://",)
        if not value.startswith(schemes):
            raise serializers.ValidationError("Must be an https URL.")
        return value

    def validate_keys(self, value: dict[str, str]) -> dict[str, str]:
        _b64url(value["p256dh"], 65, "p256dh")
        _b64url(value["auth"], 16, "auth")
        return value


class DeviceRequestSerializer(StrictRequestSerializer):
    platform = serializers.ChoiceField(choices=Platform.choices)
    token = StrictCharField(
        required=False, max_length=4096, help_text="The FCM registration token or APNs token."
    )
    subscription = SubscriptionSerializer(required=False, help_text="Web Push only.")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        platform = attrs["platform"]
        if platform == Platform.WEBPUSH:
            if "token" in attrs:
                raise serializers.ValidationError({"token": "Web Push takes a subscription."})
            if "subscription" not in attrs:
                raise serializers.ValidationError({"subscription": "This field is required."})
        else:
            if "subscription" in attrs:
                raise serializers.ValidationError({"subscription": "Only for Web Push."})
            token = attrs.get("token")
            if token is None:
                raise serializers.ValidationError({"token": "This field is required."})
            pattern = _APNS_TOKEN if platform == Platform.APNS else _TOKEN
            if not pattern.match(token):
                raise serializers.ValidationError({"token": "Not a device token."})
        return attrs


class DeviceSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    platform = serializers.ChoiceField(choices=Platform.choices)
    language = serializers.ChoiceField(
        choices=Language.choices, help_text="From the registering request's Accept-Language."
    )
    created_at = serializers.DateTimeField()
    endpoint = serializers.CharField(required=False, help_text="Web Push devices.")
    token_suffix = serializers.CharField(
        required=False, help_text="FCM and APNs devices: the token's last 8 characters."
    )


class DeviceListSerializer(serializers.Serializer):
    results = DeviceSerializer(many=True)
    next = serializers.URLField(allow_null=True, help_text="Always null: one page.")


def _preference_fields(*, required: bool) -> dict[str, serializers.Field]:
    return {
        kind.value: serializers.BooleanField(required=required, help_text=f"Push {kind.label}.")
        for kind in EventKind
    }


class StrictBooleanField(serializers.BooleanField):
    """true or false only (DRF's would take "yes", 1, "on")."""

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


PreferencesSerializer = type(
    "PreferencesSerializer", (serializers.Serializer,), _preference_fields(required=True)
)
PreferencesPatchSerializer: type[StrictRequestSerializer] = type(
    "PreferencesPatchSerializer",
    (StrictRequestSerializer,),
    {
        kind.value: StrictBooleanField(required=False, help_text=f"Push {kind.label}.")
        for kind in EventKind
    },
)


def request_language(request: Request) -> str:
    """The first of our languages the Accept-Language header names; English otherwise.
    (The account has no language yet; once it has, it wins.)"""
    header = request.headers.get("Accept-Language", "")
    for code, _quality in parse_accept_lang_header(header.lower()):
        base = code.split("-")[0]
        if base in Language.values:
            return base
    return Language.EN


_WEBPUSH_EXAMPLE = {
    "platform": "webpush",
    "subscription": {
        "endpoint": "https://push.example.net/send/abc123",
        "keys": {
            "p256dh": (
                "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u"
                "-Ts1XbjhazAkj7I99e8QcYP7DkM"
            ),
            "auth": "tBHItJI5svbpez7KI4CCXg",
        },
    },
}


class DevicesView(APIView):
    throttle_scope = "push"

    @extend_schema(
        operation_id="me_devices_list",
        responses={200: DeviceListSerializer, **docs.AUTH_ERRORS},
        summary="Your push targets",
    )
    def get(self, request: Request) -> Response:
        devices = Device.objects.filter(user=request.user).order_by("id")  # type: ignore[misc]
        return Response({"results": [services.device_json(d) for d in devices], "next": None})

    @extend_schema(
        operation_id="me_devices_create",
        request=DeviceRequestSerializer,
        responses={
            201: DeviceSerializer,
            200: DeviceSerializer,
            **docs.errors(
                (400, "Invalid fields, or too many devices (`invalid`, `unknown_field`)."),
                base=docs.AUTH_ERRORS,
            ),
        },
        examples=[
            OpenApiExample("FCM", value={"platform": "fcm", "token": "fcm-registration-token"}),
            OpenApiExample("APNs", value={"platform": "apns", "token": "a" * 64}),
            OpenApiExample("Web Push", value=_WEBPUSH_EXAMPLE),
        ],
        summary="Register a push target for this device (201 new, 200 already known)",
        description=(
            "`token` for FCM and APNs, `subscription` (the browser's "
            "`PushSubscription.toJSON()`) for Web Push. The texts' language comes from "
            "`Accept-Language` (`en` or `ar`, default `en`). A target already registered "
            "(by anyone) is updated and belongs to the caller from now on."
        ),
    )
    def post(self, request: Request) -> Response:
        data = validated_body(DeviceRequestSerializer, request.data)
        subscription = data.get("subscription")
        device, created = services.device_register(
            user=request.user,  # type: ignore[arg-type]
            platform=data["platform"],
            address=subscription["endpoint"] if subscription else data["token"],
            p256dh=subscription["keys"]["p256dh"] if subscription else "",
            auth=subscription["keys"]["auth"] if subscription else "",
            language=request_language(request),
        )
        return Response(
            services.device_json(device),
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


class DeviceView(APIView):
    throttle_scope = "push"

    @extend_schema(
        operation_id="me_devices_destroy",
        request=None,
        responses={
            204: None,
            **docs.errors(
                (400, docs.NO_BODY),
                (404, "No such device of yours (`not_found`)."),
                base=docs.AUTH_ERRORS,
            ),
        },
        summary="Remove a push target",
    )
    def delete(self, request: Request, device_id: int) -> Response:
        refuse_body(request.data)
        services.device_delete(user=request.user, device_id=device_id)  # type: ignore[arg-type]
        return Response(status=status.HTTP_204_NO_CONTENT)


class NotificationPreferencesView(APIView):
    throttle_scope = "push"

    @extend_schema(
        operation_id="me_notifications_retrieve",
        responses={200: PreferencesSerializer, **docs.AUTH_ERRORS},
        summary="Which events you are pushed (true) or muted (false)",
    )
    def get(self, request: Request) -> Response:
        return Response(services.preferences_of(request.user))  # type: ignore[arg-type]

    @extend_schema(
        operation_id="me_notifications_partial_update",
        request=PreferencesPatchSerializer,
        responses={
            200: PreferencesSerializer,
            **docs.errors(
                (400, "Invalid fields: not a boolean, or an unknown kind (`invalid`)."),
                base=docs.AUTH_ERRORS,
            ),
        },
        examples=[OpenApiExample("Mute turn reminders", value={"turn_nearly_spent": False})],
        summary="Mute or unmute kinds of event",
    )
    def patch(self, request: Request) -> Response:
        changes = validated_body(PreferencesPatchSerializer, request.data)
        return Response(
            services.preferences_update(user=request.user, changes=changes)  # type: ignore[arg-type]
        )
