"""drf-spectacular descriptions: the bearer token scheme, and what a deletion requires."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension

from accounts.api.serializers import AccountDeleteRequestSerializer
from core.serializers import StrictRequestSchema

if TYPE_CHECKING:
    from drf_spectacular.openapi import AutoSchema


class BearerTokenScheme(OpenApiAuthenticationExtension):
    target_class = "accounts.authentication.BearerTokenAuthentication"
    name = "bearerAuth"

    def get_security_definition(self, auto_schema: AutoSchema) -> dict[str, Any]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "An opaque token from /auth/register or /auth/login.",
        }


class AccountDeleteRequestScheme(StrictRequestSchema):
    """``DELETE /me`` takes a password, or a fresh sign-in (``provider`` and ``id_token``; its
    ``nonce`` when it used one): the serializer's ``validate`` asks for one of the two, and
    the schema says so, so a body with neither is one the schema forbids (a 400)."""

    target_class = AccountDeleteRequestSerializer
    match_subclasses = False
    priority = 1  # before the strict schema of every request serializer, which it extends

    def map_serializer(self, auto_schema: AutoSchema, direction: Any) -> dict[str, Any]:
        schema = super().map_serializer(auto_schema, direction)
        # Each way names the properties it requires (strict validators ask for it, and a
        # generated type then makes them required in its branch).
        schema["anyOf"] = [
            {"properties": {n: schema["properties"][n] for n in way}, "required": list(way)}
            for way in (("password",), ("provider", "id_token"))
        ]
        return schema
