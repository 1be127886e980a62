"""Request-body parsing shared by every view: a JSON object, validated by a serializer."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from baloot_site.errors import ServiceError


def validated_body(serializer_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    """The validated fields of ``data``; a 400 problem (with ``errors``) otherwise."""
    if not isinstance(data, dict):
        raise ServiceError(
            "The body must be a JSON object.",
            code="invalid",
            errors=[{"field": "body", "code": "invalid", "detail": "Expected a JSON object."}],
        )
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)
