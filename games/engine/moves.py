"""Moves: calls, doubling calls, project declarations and card plays (record-format.md).

Moves are frozen dataclasses over engine cards; ``codec.move_from_dict``/``codec.move_to_dict``
convert to and from the record format's action objects (without ``seat``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .cards import Card


class Call(StrEnum):
    PASS = "pass"
    HOKUM = "hokum"
    SUN = "sun"
    ASHKAL = "ashkal"


class DoubleCall(StrEnum):
    PASS = "pass"
    DOUBLE = "double"
    TRIPLE = "triple"
    FOUR = "four"
    GAHWA = "gahwa"


class ProjectKind(StrEnum):
    SIRA = "sira"
    FIFTY = "50"
    HUNDRED = "100"
    FOUR_HUNDRED = "400"


class MoveType(StrEnum):
    BID = "bid"
    DOUBLE = "double"
    DECLARE = "declare"
    PLAY = "play"


@dataclass(frozen=True, slots=True)
class Bid:
    call: Call
    suit: int | None = None  # only for the round-2 Hokum choice (R17)


@dataclass(frozen=True, slots=True)
class Double:
    call: DoubleCall


@dataclass(frozen=True, slots=True)
class Project:
    kind: ProjectKind
    cards: tuple[Card, ...]  # sorted


@dataclass(frozen=True, slots=True)
class Declare:
    projects: tuple[Project, ...]


@dataclass(frozen=True, slots=True)
class Play:
    card: Card


Move = Bid | Double | Declare | Play
