"""Moves: calls, doubling calls, project declarations and card plays (record-format.md).

Moves are frozen dataclasses over engine cards; ``codec.moves.move_from_dict``/``move_to_dict``
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
    SAWA = "sawa"


@dataclass(frozen=True, slots=True)
class Bid:
    call: Call
    suit: int | None = None  # only for the round-2 Hokum choice (R17)


@dataclass(frozen=True, slots=True)
class Double:
    call: DoubleCall
    # S10: closed (True) or open (False), only where the caller chooses (a Hokum Double or
    # Four in `saudi`); None everywhere else, and always in `gamerules`.
    locked: bool | None = None


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


@dataclass(frozen=True, slots=True)
class Sawa:
    """S20: the seat to lead claims every remaining trick for its team."""


Move = Bid | Double | Declare | Play | Sawa


# One object per card play, call and doubling call: legal move lists hand these out and the
# record parser returns them, instead of making new ones. A move checked against a list of
# legal ones is then found by identity, before any dataclass ``__eq__`` runs.
PLAYS: tuple[Play, ...] = tuple(Play(card) for card in range(32))
BIDS: dict[tuple[Call, int | None], Bid] = {
    **{(call, None): Bid(call) for call in Call},
    **{(Call.HOKUM, suit): Bid(Call.HOKUM, suit) for suit in range(4)},  # R17's choice
}
DOUBLES: dict[tuple[DoubleCall, bool | None], Double] = {
    (call, locked): Double(call, locked) for call in DoubleCall for locked in (None, False, True)
}
SAWA = Sawa()
