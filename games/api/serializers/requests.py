"""Request bodies: each names only its own fields (``core.serializers.StrictRequestSerializer``)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.serializers import StrictCharField, StrictRequestSerializer
from games import engine
from games.api.schema_enums import CARDS, SUITS
from games.models import (
    BotLevel,
    Visibility,
)


@extend_schema_field(
    {
        "type": "object",
        "description": 'Bot levels by seat: keys "1", "2" and "3" (the creator takes seat 0).',
        "properties": {
            str(seat): {"$ref": "#/components/schemas/BotLevelEnum"} for seat in (1, 2, 3)
        },
        "additionalProperties": False,
    },
    component_name="BotSeats",
)
class BotSeatsField(serializers.DictField):
    """Bot levels keyed by seat ("1"-"3"); any other key is refused (``invalid_seat``)."""

    child = serializers.ChoiceField(choices=BotLevel.choices)

    def to_internal_value(self, data: Any) -> dict[int, str]:
        value = super().to_internal_value(data)
        out: dict[int, str] = {}
        for key, level in value.items():
            if key not in ("1", "2", "3"):
                raise serializers.ValidationError(
                    "Bots may sit in seats 1, 2 and 3 only (the creator takes seat 0).",
                    code="invalid_seat",
                )
            out[int(key)] = level
        return out


class MatchCreateRequestSerializer(StrictRequestSerializer):
    ruleset = serializers.ChoiceField(
        choices=sorted(engine.RULESETS), default=engine.GAMERULES.name
    )
    target = serializers.IntegerField(min_value=1, max_value=10_000, default=152)
    turn_seconds = serializers.IntegerField(
        min_value=settings.BALOOT["MIN_TURN_SECONDS"],
        max_value=settings.BALOOT["MAX_TURN_SECONDS"],
        default=settings.BALOOT["DEFAULT_TURN_SECONDS"],
    )
    visibility = serializers.ChoiceField(choices=Visibility.choices, default=Visibility.PRIVATE)
    bots = BotSeatsField(
        required=False,
        default=dict,
        help_text='Bot levels for seats 1-3, e.g. {"1": "easy", "3": "normal"}.',
    )


class MatchJoinRequestSerializer(StrictRequestSerializer):
    seat = serializers.IntegerField(min_value=0, max_value=3, required=False, allow_null=True)
    code = StrictCharField(max_length=32, required=False, allow_blank=True)


class ProjectSerializer(StrictRequestSerializer):
    kind = serializers.ChoiceField(choices=[k.value for k in engine.ProjectKind])
    cards = serializers.ListField(
        child=serializers.ChoiceField(choices=CARDS), min_length=1, max_length=8
    )


class MoveRequestSerializer(StrictRequestSerializer):
    """A move, as in the record format's actions without ``seat``."""

    type = serializers.ChoiceField(choices=[t.value for t in engine.moves.MoveType])
    call = StrictCharField(
        required=False,
        help_text="bid: pass/hokum/sun/ashkal; double: pass/double/triple/four/gahwa",
    )
    suit = serializers.ChoiceField(choices=SUITS, required=False, allow_null=True)
    card = serializers.ChoiceField(choices=CARDS, required=False)
    projects = ProjectSerializer(many=True, required=False, max_length=4)
    expected_version = serializers.IntegerField(min_value=0, required=False, allow_null=True)

    _FIELDS_BY_TYPE = {
        "bid": ({"call"}, {"suit"}),
        "double": ({"call"}, set()),
        "declare": ({"projects"}, set()),
        "play": ({"card"}, set()),
    }
    _CALLS = {
        "bid": {c.value for c in engine.Call},
        "double": {c.value for c in engine.DoubleCall},
    }

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        move_type = attrs["type"]
        required, optional = self._FIELDS_BY_TYPE[move_type]
        present = {k for k in ("call", "suit", "card", "projects") if attrs.get(k) is not None}
        errors: dict[str, str] = {}
        for name in sorted(required - present):
            errors[name] = f"Required for a {move_type} move."
        for name in sorted(present - required - optional):
            errors[name] = f"Not allowed in a {move_type} move."
        call = attrs.get("call")
        if call is not None and move_type in self._CALLS and call not in self._CALLS[move_type]:
            errors["call"] = f"Not a {move_type} call."
        if errors:
            raise serializers.ValidationError(errors, code="invalid")
        return attrs
