"""Request and problem shapes every app's API shares.

``StrictRequestSerializer`` refuses unknown fields on every write body; ``ProblemSerializer``
documents the one error shape (``core.problems``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, cast

from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiSerializerExtension, OpenApiSerializerFieldExtension
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
            str(name): [serializers.ErrorDetail(str(_("Unknown field.")), code="unknown_field")]
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

    def get_name(self, auto_schema: Any, direction: Any) -> str | None:
        # drf-spectacular appends "Request" to request components (COMPONENT_SPLIT_REQUEST),
        # so `MatchCreateRequestSerializer` would publish as `MatchCreateRequestRequest`; the
        # class name's own "Request" is dropped for it to publish as `MatchCreateRequest`.
        target = self.target if isinstance(self.target, type) else type(self.target)
        name = target.__name__.removesuffix("Serializer")
        return name.removesuffix("Request") or name

    def map_serializer(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        schema = auto_schema._map_serializer(self.target, direction, bypass_extensions=True)
        schema["additionalProperties"] = False
        # A request field with a default may be left out, but code generators read `default`
        # as "always present" (openapi-typescript makes such a field required), so `{}` would
        # not compile as a create body. The default is stated in words instead; the server
        # applies it as before.
        for prop in schema.get("properties", {}).values():
            if "default" in prop:
                default = json.dumps(prop.pop("default"))
                # First, so that the enum hook (which moves a trailing "* `value`" list
                # to the enum component) leaves it with the field.
                said = f"Defaults to `{default}` when left out."
                prop["description"] = (
                    f"{said}\n\n{prop['description']}" if prop.get("description") else said
                )
        return schema


class ConstField(serializers.Field):
    """A string that must be exactly ``value``: the discriminator of a union member (a move's
    ``type``). Published as ``const`` so a generated client types it as that literal."""

    def __init__(self, value: str, **kwargs: Any) -> None:
        self.value = value
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str:
        if data != self.value:
            raise serializers.ValidationError(
                _("Must be %(value)r.") % {"value": self.value}, code="invalid_choice"
            )
        return self.value

    def to_representation(self, value: Any) -> str:
        return self.value


class ConstFieldSchema(OpenApiSerializerFieldExtension):
    target_class = ConstField

    def map_serializer_field(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        return {"type": "string", "const": self.target.value}


class StrictCharField(serializers.CharField):
    """A string and only a string: DRF's CharField would turn 0 or true into "0", "True".
    Taken as sent, not trimmed: a password, a code or a token with spaces is that value (a
    trimmed password logged in without its spaces), and a string the schema allows, spaces
    only included, is never a 400 for being blank once trimmed."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("trim_whitespace", False)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    """true or false and nothing else: DRF's BooleanField would take "yes", 1 or "on"."""

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


class FullMatchRegexValidator(RegexValidator):
    """The pattern must match the whole value. Django's ``RegexValidator`` searches, and
    Python's ``$`` also matches just before a trailing newline, so ``^[0-9a-f]{64}$`` took a
    token with a newline after it; the published pattern (ECMAScript, where ``$`` is the end)
    does not, and neither does this."""

    def __call__(self, value: Any) -> None:
        # A compiled pattern (RegexValidator compiles a string regex lazily).
        matches = cast("re.Pattern[str]", self.regex).fullmatch(str(value)) is not None
        if matches == self.inverse_match:
            raise ValidationError(self.message, code=self.code, params={"value": value})


class StrictRegexField(serializers.RegexField):
    """A string that matches ``regex`` from its first character to its last, as sent: no
    whitespace trimmed off before (DRF's CharField would strip a trailing newline or a leading
    space and store the rest) and no ``$`` that stops short of a final newline. The schema
    publishes ``regex`` as the field's ``pattern`` (keep it ``^...$``: ECMAScript has no
    ``\\Z``)."""

    def __init__(self, regex: str, **kwargs: Any) -> None:
        kwargs["trim_whitespace"] = False
        super().__init__(regex, **kwargs)
        self.validators = [
            FullMatchRegexValidator(v.regex, message=v.message) if type(v) is RegexValidator else v
            for v in self.validators
        ]

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
    # The API's field is `errors` (RFC 9457 extension); this serializer only documents the
    # schema and is never validated, so Serializer.errors is never read on it.
    errors = ProblemFieldErrorSerializer(many=True, required=False)  # type: ignore[assignment]
    current_version = serializers.IntegerField(required=False)
