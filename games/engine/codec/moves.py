"""Moves and projects as record-format actions (record-format.md "actions"), both ways.

The key order of what ``move_to_dict`` writes is part of the byte-for-byte contract of records
and of ``python -m games.engine replay``.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, TypeVar

from ..cards import card_names, card_str, parse_card, parse_suit, suit_str
from ..errors import MalformedMove
from ..moves import (
    BIDS,
    PLAYS,
    Bid,
    Call,
    Declare,
    Double,
    DoubleCall,
    Move,
    MoveType,
    Play,
    Project,
    ProjectKind,
    Sawa,
)
from ..rulesets import GAMERULES, Ruleset


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
        if move.locked is None:
            return {"type": "double", "call": move.call.value}
        return {"type": "double", "call": move.call.value, "locked": move.locked}  # S11
    if isinstance(move, Sawa):
        return {"type": "sawa"}
    return {"type": "declare", "projects": [project_to_dict(p) for p in move.projects]}


_E = TypeVar("_E", bound=StrEnum)


def _enum(enum: type[_E], value: object, what: str) -> _E:
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


# The moves most actions are, by their names: a replay parses tens of thousands of them.
_PLAYS_BY_NAME: dict[str, Move] = {card_str(c): PLAYS[c] for c in range(32)}
_BIDS_BY_CALL: dict[str, Move] = {call.value: BIDS[call, None] for call in Call}


def move_from_dict(data: object, ruleset: Ruleset = GAMERULES) -> Move:
    """Parse a record-format action (``seat`` and unknown keys are ignored) of a record in
    ``ruleset``: ``sawa`` and a Double's ``locked`` exist only where the ruleset has them
    (S11, S20); elsewhere ``sawa`` is an unknown type and ``locked`` an unknown key."""
    if type(data) is dict:
        # The common, well-formed plays and suitless bids, by lookup; everything else (and
        # every error) goes through the checks below.
        kind = data.get("type")
        if kind == "play":
            card = data.get("card")
            if type(card) is str and card in _PLAYS_BY_NAME:
                return _PLAYS_BY_NAME[card]
        elif kind == "bid" and data.get("suit") is None:
            call = data.get("call")
            if type(call) is str and call in _BIDS_BY_CALL:
                return _BIDS_BY_CALL[call]
    return _move_from_dict_checked(data, ruleset)


def _move_from_dict_checked(data: object, ruleset: Ruleset) -> Move:
    if not isinstance(data, dict):
        raise MalformedMove("a move must be a JSON object")
    move_type = _enum(MoveType, data.get("type"), "move type")
    if move_type is MoveType.SAWA:
        if not ruleset.sawa:
            raise MalformedMove(f"unknown move type: {data.get('type')!r}")
        return Sawa()
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
        double_call = _enum(DoubleCall, data.get("call"), "doubling call")
        if not ruleset.lock_chosen_by_caller or "locked" not in data:
            return Double(call=double_call)
        locked = data["locked"]
        if not isinstance(locked, bool):
            raise MalformedMove(f"locked must be a boolean: {locked!r}")
        # Where it is ignored (pass, triple, gahwa, Sun) the engine drops it when applied.
        return Double(call=double_call, locked=locked)
    projects = data.get("projects")
    if not isinstance(projects, list):
        raise MalformedMove("projects must be a list")
    return Declare(projects=tuple(project_from_dict(p) for p in projects))


def action_to_dict(seat: int, move: Move) -> dict[str, Any]:
    """A record-format action: the move with its ``seat`` first."""
    return {"seat": seat, **move_to_dict(move)}
