"""Request bodies: each names only its own fields (``core.serializers.StrictRequestSerializer``)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.serializers import StrictBooleanField, StrictCharField, StrictRequestSerializer
from games import engine
from games.api.schema_enums import CARDS, RULESETS, SUITS
from games.api.serializers.moves import (
    MAX_PROJECTS,
    REQUEST_MEMBERS,
    ProjectRequestSerializer,
    member_field_map,
    member_fields,
)
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
                    _("Bots may sit in seats 1, 2 and 3 only (the creator takes seat 0)."),
                    code="invalid_seat",
                )
            out[int(key)] = level
        return out


class MatchCreateRequestSerializer(StrictRequestSerializer):
    ruleset = serializers.ChoiceField(choices=RULESETS, default=engine.GAMERULES.name)
    target = serializers.IntegerField(min_value=1, max_value=10_000, default=152)
    turn_seconds = serializers.IntegerField(
        min_value=settings.BALOOT["MIN_TURN_SECONDS"],
        max_value=settings.BALOOT["MAX_TURN_SECONDS"],
        default=settings.BALOOT["DEFAULT_TURN_SECONDS"],
    )
    visibility = serializers.ChoiceField(choices=Visibility.choices, default=Visibility.PRIVATE)
    rated = StrictBooleanField(
        default=False,
        help_text=(
            "Whether the result moves the players' ratings; a table is casual unless asked. "
            "It counts only with four humans at the table, between opponents who have not "
            "used up their rated matches together for the last 24 hours (a server setting, 3 "
            "by default), and once a round has been played out; the match view's `rated` "
            "says whether it still counts."
        ),
    )
    bots = BotSeatsField(
        required=False,
        default=dict,
        help_text=(
            'Bot levels for seats 1-3, e.g. {"1": "easy", "2": "normal", "3": "hard"}. A hard '
            "bot thinks about a second a move; the others answer at once."
        ),
    )


class MatchJoinRequestSerializer(StrictRequestSerializer):
    seat = serializers.IntegerField(min_value=0, max_value=3, required=False, allow_null=True)
    code = StrictCharField(max_length=32, required=False, allow_blank=True, trim_whitespace=False)


# The move body's schema is the union in ``games.api.serializers.moves`` (MOVE_REQUEST); this
# serializer parses a body against the same members: each type's own fields, required ones
# required, no field of another type (`invalid`, naming it) and no unknown one
# (`unknown_field`). One flat parser rather than the members themselves keeps the field-error
# codes clients already rely on (a play without a card is `card: invalid`).
class MoveRequestSerializer(StrictRequestSerializer):
    type = serializers.ChoiceField(choices=list(REQUEST_MEMBERS))
    call = StrictCharField(required=False)
    suit = serializers.ChoiceField(choices=SUITS, required=False, allow_null=True)
    card = serializers.ChoiceField(choices=CARDS, required=False)
    locked = StrictBooleanField(required=False)
    # DRF passes max_length on to the list serializer (LIST_SERIALIZER_KWARGS_REMOVE); the stubs
    # leave it out of BaseSerializer's keywords.
    projects = ProjectRequestSerializer(  # type: ignore[call-arg]
        many=True, required=False, max_length=MAX_PROJECTS
    )
    expected_version = serializers.IntegerField(min_value=0, required=False, allow_null=True)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        move_type = attrs["type"]
        required, optional = member_fields(move_type)
        member = member_field_map(move_type)
        # A null counts as absent only where the member allows null (a bid's `suit`).
        present = {
            k
            for k in ("call", "suit", "card", "projects", "locked")
            if k in attrs and (attrs[k] is not None or k not in member or not member[k].allow_null)
        }
        errors: dict[str, str] = {}
        kind = {"move_type": move_type}
        for name in sorted(required - present):
            errors[name] = _("Required for a %(move_type)s move.") % kind
        for name in sorted(present - required - optional):
            errors[name] = _("Not allowed in a %(move_type)s move.") % kind
        call = attrs.get("call")
        call_field = member.get("call")  # a ChoiceField in every member that has a call
        if (
            call is not None
            and isinstance(call_field, serializers.ChoiceField)
            and call not in call_field.choices
        ):
            errors["call"] = _("Not a %(move_type)s call.") % kind
        if errors:
            raise serializers.ValidationError(errors, code="invalid")
        return attrs
