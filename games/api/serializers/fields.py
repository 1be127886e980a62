"""Output fields over engine values: cards, suits, phases, lists of ints.

The response serializers render selector data (engine observations, round logs, model rows)
with these, so what a field documents is what it renders. Each is a DRF field for the schema
and a one-line ``to_representation`` for speed: the serializers are built once per process
(``games.api.bodies``) and only ever render, so no validation machinery runs per answer.
"""

from __future__ import annotations

from typing import Any

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


class IntListField(serializers.ListField):
    """Integers per team or per seat (already ints: the engine's tuples, a stored result)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(child=serializers.IntegerField(), **kwargs)

    def to_representation(self, data: Any) -> list[int]:
        return list(data)


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
