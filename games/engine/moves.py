"""Moves: calls, doubling calls, project declarations and card plays (record-format.md).

Moves are frozen dataclasses over engine cards; ``move_from_dict``/``move_to_dict`` convert
to and from the record format's action objects (without ``seat``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .cards import Card, card_names, card_str, parse_card, parse_suit, suit_str
from .errors import MalformedMove


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


def project_to_dict(project: Project) -> dict[str, Any]:
    return {"kind": project.kind.value, "cards": card_names(project.cards)}


def move_to_dict(move: Move) -> dict[str, Any]:
    """The record-format action for ``move``, without ``seat``."""
    if isinstance(move, Play):
        return {"type": "play", "card": card_str(move.card)}
    if isinstance(move, Bid):
        out: dict[str, Any] = {"type": "bid", "call": move.call.value}
        if move.suit is not None:
            out["suit"] = suit_str(move.suit)
        return out
    if isinstance(move, Double):
        return {"type": "double", "call": move.call.value}
    return {"type": "declare", "projects": [project_to_dict(p) for p in move.projects]}


def _enum(enum: type[StrEnum], value: object, what: str) -> Any:
    if not isinstance(value, str):
        raise MalformedMove(f"unknown {what}: {value!r}")
    try:
        return enum(value)
    except ValueError:
        raise MalformedMove(f"unknown {what}: {value!r}") from None


def project_from_dict(data: object) -> Project:
    if not isinstance(data, dict):
        raise MalformedMove("a project must be an object with kind and cards")
    kind = _enum(ProjectKind, data.get("kind"), "project kind")
    cards = data.get("cards")
    if not isinstance(cards, list) or not cards:
        raise MalformedMove("a project's cards must be a non-empty list")
    try:
        parsed = tuple(sorted(parse_card(c) for c in cards))
    except ValueError as exc:
        raise MalformedMove(str(exc)) from None
    return Project(kind=kind, cards=parsed)


def move_from_dict(data: object) -> Move:
    """Parse a record-format action (``seat`` and unknown keys are ignored)."""
    if not isinstance(data, dict):
        raise MalformedMove("a move must be a JSON object")
    move_type = _enum(MoveType, data.get("type"), "move type")
    if move_type is MoveType.PLAY:
        try:
            return Play(card=parse_card(data.get("card")))
        except ValueError as exc:
            raise MalformedMove(str(exc)) from None
    if move_type is MoveType.BID:
        call = _enum(Call, data.get("call"), "call")
        suit = data.get("suit")
        if suit is None:
            return Bid(call=call)
        try:
            return Bid(call=call, suit=parse_suit(suit))
        except ValueError as exc:
            raise MalformedMove(str(exc)) from None
    if move_type is MoveType.DOUBLE:
        return Double(call=_enum(DoubleCall, data.get("call"), "doubling call"))
    projects = data.get("projects")
    if not isinstance(projects, list):
        raise MalformedMove("projects must be a list")
    return Declare(projects=tuple(project_from_dict(p) for p in projects))
