"""Output fields over engine values: cards, suits, phases, lists of ints.

The response serializers render selector data (engine observations, round logs, model rows)
with these, so what a field documents is what it renders. Each is a DRF field for the schema
and a one-line ``to_representation`` for speed: the serializers are built once per process
(``games.api.bodies``) and only ever render, so no validation machinery runs per answer.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.fields import SkipField

from games import engine
from games.api.schema_enums import CARDS, PHASES, SUITS
from games.engine.cards import card_names, card_str, suit_str


class CardField(serializers.ChoiceField):
    """One card (an engine ``Card``), by its record-format name."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=CARDS, **kwargs)

    def to_representation(self, value: Any) -> str:
        return card_str(value)


class CardSequenceField(serializers.ListField):
    """Cards in the order given (a trick's, in play order)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(child=CardField(), **kwargs)

    def to_representation(self, data: Any) -> list[str]:
        return [card_str(c) for c in data]


class CardSetField(CardSequenceField):
    """Cards in card order (a hand, a project's cards)."""

    def to_representation(self, data: Any) -> list[str]:
        return card_names(data)


# Each seat's hand as a reference to the Hand component (settings: APPEND_COMPONENTS), not an
# array inline: openapi-typescript's --array-length types a four-item array of inline arrays as
# four arrays of arrays, where four references give `[Hand, Hand, Hand, Hand]`.
@extend_schema_field(
    {
        "type": "array",
        "items": {"$ref": "#/components/schemas/Hand"},
        "minItems": 4,
        "maxItems": 4,
    }
)
class SeatHandsField(serializers.ListField):
    """One hand per seat, seat 0's first, each in card order (a Sawa's revealed hands)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(child=CardSetField(), min_length=4, max_length=4, **kwargs)


class IntListField(serializers.ListField):
    """Integers (already ints: the engine's tuples, a stored result): a list of seats."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(child=serializers.IntegerField(), **kwargs)

    def to_representation(self, data: Any) -> list[int]:
        return list(data)


class TeamPairField(IntListField):
    """One integer per team, team 0's first. Exactly two items in the schema, so generated
    clients type it as a pair (openapi-typescript's ``--array-length``: ``[number, number]``)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(min_length=2, max_length=2, **kwargs)


class PerSeatField(IntListField):
    """One integer per seat, seat 0's first: exactly four items."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(min_length=4, max_length=4, **kwargs)


class OptionalSuitField(serializers.ChoiceField):
    """A suit (an engine ``Suit``) that is left out of the object when there is none."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=SUITS, required=False, **kwargs)

    def get_attribute(self, instance: Any) -> Any:
        value = super().get_attribute(instance)
        if value is None:
            raise SkipField()
        return value

    def to_representation(self, value: Any) -> str:
        return suit_str(value)


class SuitField(serializers.ChoiceField):
    """A suit (an engine ``Suit``), or null."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=SUITS, **kwargs)

    def to_representation(self, value: Any) -> str:
        return suit_str(value)


class PhaseField(serializers.ChoiceField):
    """A round's phase: the engine's, with a finished round shown as ``over``."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=PHASES, **kwargs)

    def to_representation(self, value: Any) -> str:
        return "over" if value is engine.Phase.FINISHED else str(value.value)


class EnumValueField(serializers.ChoiceField):
    """A ``StrEnum`` member (or its stored string) as its value."""

    def to_representation(self, value: Any) -> str:
        return str(value)


class ResponseSerializer(serializers.Serializer):
    # A serializer that only renders: the one definition of a response body (or a part).
    # It renders exactly its declared fields, in order, as DRF's ``to_representation`` would,
    # but reads each field's value with a getter prepared once (a plain attribute or key path
    # where the field's source is one) instead of DRF's general lookup on every call: the move
    # path renders a view under the match's row lock. (Comments, not a docstring: drf-spectacular
    # would publish a docstring as every subclass's description.)

    def to_representation(self, instance: Any) -> dict[str, Any]:
        plan = self.__dict__.get("_plan")
        if plan is None:
            plan = self.__dict__["_plan"] = [
                (name, _getter(field), field.to_representation)
                for name, field in self.fields.items()
                if not field.write_only
            ]
        out: dict[str, Any] = {}
        for name, get, render in plan:
            try:
                value = get(instance)
            except SkipField:
                continue
            out[name] = None if value is None else render(value)
        return out


def _getter(field: serializers.Field) -> Any:
    """How to read ``field``'s value: DRF's own lookup where the field changes it (an override
    of ``get_attribute``, a ``*`` source, a default), else a straight walk of its source path
    (DRF's lookup again for anything missing, so its rules for that hold)."""
    if (
        type(field).get_attribute is not serializers.Field.get_attribute
        or field.source == "*"
        or field.default is not serializers.empty
    ):
        return field.get_attribute
    attrs = tuple(field.source_attrs)

    def get(instance: Any) -> Any:
        value = instance
        try:
            for attr in attrs:
                value = value[attr] if type(value) is dict else getattr(value, attr)
        except (KeyError, AttributeError):
            return field.get_attribute(instance)
        return value

    return get
