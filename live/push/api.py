"""Push targets and preferences: ``/me/devices`` and ``/me/notifications``."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation.trans_real import parse_accept_lang_header
from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiExample, PolymorphicProxySerializer, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.authentication import request_user
from core import docs
from core.errors import InvalidInput
from core.parsing import refuse_body, validated_body
from core.serializers import StrictCharField, StrictRegexField, StrictRequestSerializer
from live.push import endpoints, services
from live.push.kinds import EventKind
from live.push.models import Device, Language, Platform

# What each service's tokens look like: FCM registration tokens are URL-safe text, APNs
# device tokens hex. The schema publishes the same patterns.
FCM_TOKEN = r"^[A-Za-z0-9_:\-.]{8,1024}$"
APNS_TOKEN = r"^[0-9a-fA-F]{64,200}$"
# A P-256 public key, uncompressed (65 bytes, so it starts with 0x04: "B"), and a 16-byte
# auth secret, both base64url without padding as browsers give them.
P256DH = r"^B[A-Za-z0-9_\-]{86}$"
AUTH_SECRET = r"^[A-Za-z0-9_\-]{22}$"


class PushEndpointField(StrictCharField):
    """A Web Push endpoint: https on a public DNS name (live/push/endpoints.py). Taken as
    sent: DRF's CharField would strip a trailing newline and then accept the rest."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(max_length=endpoints.MAX_LENGTH, trim_whitespace=False, **kwargs)

    def to_internal_value(self, data: Any) -> str:
        value = super().to_internal_value(data)
        refusal = endpoints.endpoint_refusal(value)
        if refusal is not None:
            raise serializers.ValidationError(str(refusal), code="invalid")
        return value


class PushEndpointSchema(OpenApiSerializerFieldExtension):
    """The field's pattern, as the server checks it under the current settings."""

    target_class = PushEndpointField

    def map_serializer_field(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        return {
            "type": "string",
            "maxLength": endpoints.MAX_LENGTH,
            "pattern": endpoints.endpoint_pattern(),
        }


class SubscriptionKeysSerializer(StrictRequestSerializer):
    p256dh = StrictRegexField(P256DH, help_text="The browser's P-256 public key (base64url).")
    auth = StrictRegexField(AUTH_SECRET, help_text="The browser's auth secret (base64url).")


class SubscriptionSerializer(StrictRequestSerializer):
    """The browser's ``PushSubscription.toJSON()``."""

    endpoint = PushEndpointField(
        help_text=(
            "The push service's URL: https, on a public DNS name (no IP address, local name "
            "or user information), on the default port."
        )
    )
    keys = SubscriptionKeysSerializer()
    expirationTime = serializers.IntegerField(required=False, allow_null=True)


class FcmDeviceSerializer(StrictRequestSerializer):
    platform = serializers.ChoiceField(choices=[Platform.FCM.value])
    token = StrictRegexField(FCM_TOKEN, help_text="The FCM registration token.")


class ApnsDeviceSerializer(StrictRequestSerializer):
    platform = serializers.ChoiceField(choices=[Platform.APNS.value])
    token = StrictRegexField(APNS_TOKEN, help_text="The APNs device token (hex).")


class WebPushDeviceSerializer(StrictRequestSerializer):
    platform = serializers.ChoiceField(choices=[Platform.WEBPUSH.value])
    subscription = SubscriptionSerializer()


DEVICE_REQUESTS: dict[str, type[StrictRequestSerializer]] = {
    Platform.FCM.value: FcmDeviceSerializer,
    Platform.APNS.value: ApnsDeviceSerializer,
    Platform.WEBPUSH.value: WebPushDeviceSerializer,
}
DEVICE_REQUEST = PolymorphicProxySerializer(
    component_name="NewDevice",
    serializers=dict(DEVICE_REQUESTS.items()),  # the invariant dict type, widened
    resource_type_field_name="platform",
)


def device_body(data: Any) -> dict[str, Any]:
    """The validated body, by the serializer of its ``platform``."""
    platform = data.get("platform") if isinstance(data, dict) else None
    if not isinstance(platform, str) or platform not in DEVICE_REQUESTS:
        raise InvalidInput(
            _("Unknown platform."),
            errors=[
                {
                    "field": "platform",
                    "code": "invalid_choice",
                    "detail": _("One of: %(choices)s.") % {"choices": ", ".join(DEVICE_REQUESTS)},
                }
            ],
        )
    return validated_body(DEVICE_REQUESTS[platform], data)


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

    def get_fields(self) -> dict[str, serializers.Field]:
        # Declared here, not as an attribute: the preferences' serializer is built below.
        return {
            **super().get_fields(),
            "notifications": PreferencesSerializer(
                help_text="Pushed (true) or muted (false) on this device. The account's "
                "preferences (`GET /me/notifications`) mute for every device besides."
            ),
        }


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
    (The account's own language, when it has one, wins at delivery: live.push.delivery.)"""
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


class _BodyRequiredSchema(AutoSchema):
    """drf-spectacular marks a body required from its component's required fields, which a
    ``oneOf`` component has none of; the device body is required all the same."""

    def _get_request_body(self, direction: str = "request") -> Any:
        body = super()._get_request_body(direction)
        if body is not None:
            body["required"] = True
        return body


class DevicesView(APIView):
    throttle_scope = "push"
    schema = _BodyRequiredSchema()

    @extend_schema(
        operation_id="me_devices_list",
        responses={200: DeviceListSerializer, **docs.AUTH_ERRORS},
        summary="Your push targets",
    )
    def get(self, request: Request) -> Response:
        devices = Device.objects.filter(user=request_user(request)).order_by("id")
        return Response({"results": [services.device_json(d) for d in devices], "next": None})

    @extend_schema(
        operation_id="me_devices_create",
        request=DEVICE_REQUEST,
        responses={
            201: DeviceSerializer,
            200: DeviceSerializer,
            **docs.errors(
                (400, "Invalid fields (`invalid`, `unknown_field`)."),
                base=docs.AUTH_ERRORS,
            ),
        },
        examples=[
            OpenApiExample(
                "FCM",
                value={"platform": "fcm", "token": "fcm-registration-token"},
                request_only=True,
            ),
            OpenApiExample(
                "APNs", value={"platform": "apns", "token": "a" * 64}, request_only=True
            ),
            OpenApiExample("Web Push", value=_WEBPUSH_EXAMPLE, request_only=True),
        ],
        summary="Register a push target for this device (201 new, 200 already known)",
        description=(
            "`token` for FCM and APNs, `subscription` (the browser's "
            "`PushSubscription.toJSON()`) for Web Push. The texts' language is the account's "
            "(`PATCH /me`), else this request's `Accept-Language` (`en` or `ar`, default "
            "`en`). A target already registered "
            "(by anyone) is updated and belongs to the caller from now on. Past "
            "`PUSH_MAX_DEVICES_PER_USER` (20) devices, the caller's oldest is replaced."
        ),
    )
    def post(self, request: Request) -> Response:
        data = device_body(request.data)
        subscription = data.get("subscription")
        device, created = services.device_register(
            user=request_user(request),
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


class DevicePatchSerializer(StrictRequestSerializer):
    # Optional, as every field of a PATCH: `{}` changes nothing and answers the device.
    notifications = PreferencesPatchSerializer(
        required=False,
        help_text="The kinds to push (true) or mute (false) on this device; the others stay.",
    )


class DeviceView(APIView):
    throttle_scope = "push"

    @extend_schema(
        operation_id="me_devices_retrieve",
        responses={
            200: DeviceSerializer,
            **docs.errors((404, "No such device of yours (`not_found`)."), base=docs.AUTH_ERRORS),
        },
        summary="One of your push targets, with what it is pushed",
    )
    def get(self, request: Request, pk: int) -> Response:
        device = services.device_of(user=request_user(request), device_id=pk)
        return Response(services.device_json(device))

    @extend_schema(
        operation_id="me_devices_partial_update",
        request=DevicePatchSerializer,
        responses={
            200: DeviceSerializer,
            **docs.errors(
                (400, "Invalid fields: not a boolean, or an unknown kind (`invalid`)."),
                (404, "No such device of yours (`not_found`)."),
                base=docs.AUTH_ERRORS,
            ),
        },
        examples=[
            OpenApiExample(
                "Quiet turns on this tablet",
                value={"notifications": {"your_turn": False, "turn_nearly_spent": False}},
                request_only=True,
            )
        ],
        summary="Mute or unmute kinds of event on one device",
    )
    def patch(self, request: Request, pk: int) -> Response:
        data = validated_body(DevicePatchSerializer, request.data)
        device = services.device_notifications_update(
            user=request_user(request), device_id=pk, changes=data.get("notifications", {})
        )
        return Response(services.device_json(device))

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
    def delete(self, request: Request, pk: int) -> Response:
        refuse_body(request.data)
        services.device_delete(user=request_user(request), device_id=pk)
        return Response(status=status.HTTP_204_NO_CONTENT)


class NotificationPreferencesView(APIView):
    throttle_scope = "push"

    @extend_schema(
        operation_id="me_notifications_retrieve",
        responses={200: PreferencesSerializer, **docs.AUTH_ERRORS},
        summary="Which events you are pushed (true) or muted (false)",
    )
    def get(self, request: Request) -> Response:
        return Response(services.preferences_of(request_user(request)))

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
        examples=[
            OpenApiExample(
                "Mute turn reminders", value={"turn_nearly_spent": False}, request_only=True
            )
        ],
        summary="Mute or unmute kinds of event",
    )
    def patch(self, request: Request) -> Response:
        changes = validated_body(PreferencesPatchSerializer, request.data)
        return Response(services.preferences_update(user=request_user(request), changes=changes))
