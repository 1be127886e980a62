"""Moves as a union discriminated by ``type``, in the three places a move appears.

- the request body of ``POST /matches/{id}/moves`` (``MoveRequest``: each member may carry
  ``expected_version``),
- the items of the view's ``legal_moves`` (``LegalMove``: move fields only, postable as they
  are),
- the items of the move log (``MoveLogEntry``: the move with who made it and when).

Each member names exactly its own fields, so a generated client cannot build a ``play``
without a ``card`` or a ``bid`` with a doubling call. ``MoveRequestSerializer`` parses the
body with the same members' fields (``games.api.serializers.requests``).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers
from rest_framework.fields import SkipField

from core.serializers import ConstField, StrictBooleanField, StrictRequestSerializer
from games import engine
from games.api.schema_enums import BID_CALLS, CARDS, DOUBLE_CALLS, SUITS
from games.api.serializers.fields import (
    CardField,
    CardSetField,
    EnumValueField,
    OptionalSuitField,
    ResponseSerializer,
    SeatHandsField,
)
from games.models import Actor

PROJECT_KINDS = [k.value for k in engine.ProjectKind]
# A declaration holds at most 2 projects by the rules; the body allows a few more so that the
# engine, not the parser, names a rule broken (invalid_project). Past this bound the parser
# stops reading (a cheap refusal of a long list) and answers the same 422 invalid_project
# (baloot_site/errors.py REFUSED_FIELDS): the schema leaves the list unbounded, since a
# bounded one would make generated clients type it as tuples that a legal move's list is not.
MAX_PROJECTS = 4


class ProjectRequestSerializer(StrictRequestSerializer):
    kind = serializers.ChoiceField(choices=PROJECT_KINDS)
    cards = serializers.ListField(
        child=serializers.ChoiceField(choices=CARDS), min_length=1, max_length=8
    )


# --- the request body's members ---------------------------------------------------------------
# Fields common to every member come first in each (drf-spectacular keeps declaration order).


def _expected_version() -> serializers.IntegerField:
    return serializers.IntegerField(
        min_value=0,
        required=False,
        allow_null=True,
        help_text="The match version this move was chosen at; a stale one is 409 stale_version.",
    )


class BidMoveRequestSerializer(StrictRequestSerializer):
    type = ConstField("bid")
    call = serializers.ChoiceField(choices=BID_CALLS)
    suit = serializers.ChoiceField(
        choices=SUITS,
        required=False,
        allow_null=True,
        help_text="The trump suit of a hokum bid in the second bidding round.",
    )
    expected_version = _expected_version()


LOCKED_HELP = (
    "`saudi` Hokum only (rules S10-S11): the caller of `double` or `four` chooses a closed "
    "(locked, `true`) or an open (`false`, the default when left out) round. Ignored on "
    "`pass`, `triple`, `gahwa`, in Sun and in `gamerules` matches."
)


class DoubleMoveRequestSerializer(StrictRequestSerializer):
    type = ConstField("double")
    call = serializers.ChoiceField(choices=DOUBLE_CALLS)
    locked = StrictBooleanField(required=False, help_text=LOCKED_HELP)
    expected_version = _expected_version()


class DeclareMoveRequestSerializer(StrictRequestSerializer):
    type = ConstField("declare")
    # DRF passes max_length on to the list serializer (LIST_SERIALIZER_KWARGS_REMOVE); the stubs
    # leave it out of BaseSerializer's keywords.
    projects = ProjectRequestSerializer(  # type: ignore[call-arg]
        many=True, max_length=MAX_PROJECTS
    )
    expected_version = _expected_version()


class PlayMoveRequestSerializer(StrictRequestSerializer):
    type = ConstField("play")
    card = serializers.ChoiceField(choices=CARDS)
    expected_version = _expected_version()


class SawaMoveRequestSerializer(StrictRequestSerializer):
    # Comments, not a docstring (drf-spectacular publishes docstrings): `saudi` only (S20-S26).
    type = ConstField("sawa")
    expected_version = _expected_version()


REQUEST_MEMBERS: dict[str, type[StrictRequestSerializer]] = {
    "bid": BidMoveRequestSerializer,
    "double": DoubleMoveRequestSerializer,
    "declare": DeclareMoveRequestSerializer,
    "play": PlayMoveRequestSerializer,
    "sawa": SawaMoveRequestSerializer,
}

MOVE_REQUEST = PolymorphicProxySerializer(
    component_name="Move",
    serializers={**REQUEST_MEMBERS},  # a copy, typed as the stubs' dict of serializers
    resource_type_field_name="type",
    many=False,
)


# --- legal_moves items -----------------------------------------------------------------------
# These render engine moves (``engine.Bid`` ...): the discriminator is the member's own constant.


class ProjectViewSerializer(ResponseSerializer):
    kind = EnumValueField(choices=PROJECT_KINDS)
    cards = CardSetField()


class BidMoveSerializer(ResponseSerializer):
    type = ConstField("bid", source="*")
    call = EnumValueField(choices=BID_CALLS)
    suit = OptionalSuitField()


class OmittedWhenNone(serializers.BooleanField):
    """A boolean shown only when set: a Double's ``locked`` exists in `saudi` Hokum's
    ``double``/``four`` only (S11), so a `gamerules` answer never carries the key (S2)."""

    def get_attribute(self, instance: Any) -> Any:
        value = super().get_attribute(instance)
        if value is None:
            raise SkipField()
        return value


class DoubleMoveSerializer(ResponseSerializer):
    type = ConstField("double", source="*")
    call = EnumValueField(choices=DOUBLE_CALLS)
    locked = OmittedWhenNone(required=False, help_text=LOCKED_HELP)


class SawaMoveSerializer(ResponseSerializer):
    type = ConstField("sawa", source="*")


class DeclareMoveSerializer(ResponseSerializer):
    type = ConstField("declare", source="*")
    projects = ProjectViewSerializer(many=True)


class PlayMoveSerializer(ResponseSerializer):
    type = ConstField("play", source="*")
    card = CardField()


@extend_schema_field(
    PolymorphicProxySerializer(
        component_name="LegalMove",
        serializers={
            "bid": BidMoveSerializer,
            "double": DoubleMoveSerializer,
            "declare": DeclareMoveSerializer,
            "play": PlayMoveSerializer,
            "sawa": SawaMoveSerializer,
        },
        resource_type_field_name="type",
        many=False,
    )
)
class LegalMoveField(serializers.Field):
    """One item of ``legal_moves``: an engine move, rendered by its member of the union as a
    body that can be posted as it is."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.members: dict[type[engine.Move], serializers.Serializer] = {
            engine.Bid: BidMoveSerializer(),
            engine.Double: DoubleMoveSerializer(),
            engine.Declare: DeclareMoveSerializer(),
            engine.Play: PlayMoveSerializer(),
            engine.Sawa: SawaMoveSerializer(),
        }

    def to_representation(self, value: Any) -> dict[str, Any]:
        return self.members[type(value)].to_representation(value)


# --- move log items --------------------------------------------------------------------------
# These render ``games.selectors.LogEntry``: who moved and when, and the engine move. Each
# member names ``created_at`` last, where the entry has always shown it.


class LoggedProjectSerializer(ResponseSerializer):
    kind = EnumValueField(choices=PROJECT_KINDS)
    cards = CardSetField(
        allow_null=True,
        help_text="null for other seats until trick 1 of that round is complete",
    )


class _LogEntrySerializer(ResponseSerializer):
    seq = serializers.IntegerField()
    version = serializers.IntegerField(help_text="The match version this move produced.")
    round = serializers.IntegerField()
    seat = serializers.IntegerField()
    actor = serializers.ChoiceField(choices=Actor.choices)


def _created_at() -> serializers.DateTimeField:
    return serializers.DateTimeField()


class BidLogEntrySerializer(_LogEntrySerializer):
    type = ConstField("bid", source="*")
    call = EnumValueField(choices=BID_CALLS, source="move.call")
    suit = OptionalSuitField(source="move.suit")
    created_at = _created_at()


class DoubleLogEntrySerializer(_LogEntrySerializer):
    type = ConstField("double", source="*")
    call = EnumValueField(choices=DOUBLE_CALLS, source="move.call")
    locked = OmittedWhenNone(required=False, source="move.locked", help_text=LOCKED_HELP)
    created_at = _created_at()


class DeclareLogEntrySerializer(_LogEntrySerializer):
    type = ConstField("declare", source="*")
    projects = LoggedProjectSerializer(many=True)
    created_at = _created_at()


class PlayLogEntrySerializer(_LogEntrySerializer):
    type = ConstField("play", source="*")
    card = CardField(source="move.card")
    created_at = _created_at()


class SawaLogEntrySerializer(_LogEntrySerializer):
    type = ConstField("sawa", source="*")
    revealed_hands = SeatHandsField(
        help_text=(
            "The cards each seat (0-3) still held when Sawa was called: the round ended there "
            "and they are public at once (rules S24)."
        ),
    )
    created_at = _created_at()


@extend_schema_field(
    PolymorphicProxySerializer(
        component_name="MoveLogEntry",
        serializers={
            "bid": BidLogEntrySerializer,
            "double": DoubleLogEntrySerializer,
            "declare": DeclareLogEntrySerializer,
            "play": PlayLogEntrySerializer,
            "sawa": SawaLogEntrySerializer,
        },
        resource_type_field_name="type",
        many=False,
    )
)
class MoveLogEntryField(serializers.Field):
    """One item of the move log (a ``games.selectors.LogEntry``), rendered by its member."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.members: dict[type[engine.Move], serializers.Serializer] = {
            engine.Bid: BidLogEntrySerializer(),
            engine.Double: DoubleLogEntrySerializer(),
            engine.Declare: DeclareLogEntrySerializer(),
            engine.Play: PlayLogEntrySerializer(),
            engine.Sawa: SawaLogEntrySerializer(),
        }

    def to_representation(self, value: Any) -> dict[str, Any]:
        return self.members[type(value.move)].to_representation(value)


@functools.cache
def member_field_map(move_type: str) -> Mapping[str, serializers.Field]:
    """The fields of one request member, built once per process: the move path reads them on
    every POST, and building a serializer's fields is most of what parsing a move costs."""
    return REQUEST_MEMBERS[move_type]().fields


@functools.cache
def member_fields(move_type: str) -> tuple[frozenset[str], frozenset[str]]:
    """The required and the optional move fields of one request member (without ``type`` and
    ``expected_version``): what ``MoveRequestSerializer`` checks a body against."""
    fields = member_field_map(move_type)
    names = frozenset(fields) - {"type", "expected_version"}
    required = frozenset(name for name in names if fields[name].required)
    return required, names - required
