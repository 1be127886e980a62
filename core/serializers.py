"""Request and problem shapes every app's API shares.

``StrictRequestSerializer`` refuses unknown fields on every write body; ``ProblemSerializer``
documents the one error shape (``core.problems``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers


# A request body that names only its own fields: every other key is refused. Every request
# serializer (and nested request object) derives from this, so a misspelt option
# ("visiblity") is a `400 invalid` naming it with code `unknown_field` instead of being
# silently ignored. The schema says so with `additionalProperties: false` (StrictRequestSchema).
# (A comment, not a docstring: drf-spectacular would copy a docstring into every subclass's
# component description.)
class StrictRequestSerializer(serializers.Serializer):
    def to_internal_value(self, data: Any) -> Any:
        unknown = sorted(set(data) - set(self.fields)) if isinstance(data, Mapping) else []
        refused = {
            str(name): [serializers.ErrorDetail("Unknown field.", code="unknown_field")]
            for name in unknown
        }
        try:
            value = super().to_internal_value(data)
        except serializers.ValidationError as exc:
            # Report the unknown fields together with the other field errors.
            if refused and isinstance(exc.detail, dict):
                raise serializers.ValidationError({**exc.detail, **refused}) from None
            raise
        if refused:
            raise serializers.ValidationError(refused)
        return value


class StrictRequestSchema(OpenApiSerializerExtension):
    """``additionalProperties: false`` on every strict request component."""

    target_class = StrictRequestSerializer
    match_subclasses = True

    def map_serializer(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        schema = auto_schema._map_serializer(self.target, direction, bypass_extensions=True)
        schema["additionalProperties"] = False
        return schema


class StrictCharField(serializers.CharField):
    """A string and only a string: DRF's CharField would turn 0 or true into "0", "True"."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictRegexField(serializers.RegexField):
    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class ProblemFieldErrorSerializer(serializers.Serializer):
    field = serializers.CharField()
    code = serializers.CharField()
    detail = serializers.CharField()


@extend_schema_field({"$ref": "#/components/schemas/ErrorCodeEnum"})
class ErrorCodeField(serializers.CharField):
    """A problem's stable code. The ErrorCodeEnum component that lists every published code
    is added by ``baloot_site.schema``: only the top layer knows every app's errors."""


class ProblemSerializer(serializers.Serializer):
    """RFC 9457 problem details, the one error shape of the API."""

    type = serializers.URLField()
    title = serializers.CharField()
    status = serializers.IntegerField()
    detail = serializers.CharField()
    code = ErrorCodeField()
    errors = ProblemFieldErrorSerializer(many=True, required=False)
    current_version = serializers.IntegerField(required=False)
