"""The events a match emits (through ``core.events``) as it changes, inside the transaction.

Each carries ids and public facts only, never a card: listeners (the live stream, push
notifications) render what a given viewer may see through the selectors.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True, slots=True)
class VersionCommitted:
    """Any change to a match: its version went up (moves, joins, starts, ends, staff)."""

    match_id: int
    version: int


@dataclass(frozen=True, slots=True)
class TurnBegan:
    """A human seat is to act, with a deadline (not emitted for bot or away seats)."""

    match_id: int
    version: int
    seat: int
    user_id: int
    deadline: datetime
    turn_seconds: int  # the match's clock for a turn (a reminder is due at 80% of it)


@dataclass(frozen=True, slots=True)
class MatchStarted:
    match_id: int
    version: int


@dataclass(frozen=True, slots=True)
class MatchFinished:
    """A match ended: by the rules, resignation, adjudication (``winner_team`` set) or an
    abort (``winner_team`` None)."""

    match_id: int
    version: int
    status: str
    winner_team: int | None
    end_reason: str


@dataclass(frozen=True, slots=True)
class SeatHandedToBot:
    """A human seat is played by a bot now: ``away`` after timeouts (until the player is
    back), or for good by a staff action."""

    match_id: int
    version: int
    seat: int
    user_id: int | None
    reason: str  # "timeouts" | "staff"


@dataclass(frozen=True, slots=True)
class TurnTimedOut:
    """A human turn's deadline passed and the seat's move was played for it (actor
    ``timeout``), emitted with the move, under the match lock. Tournaments read a player's
    first turn missed as a no-show."""

    match_id: int
    version: int
    seat: int
    user_id: int


@dataclass(frozen=True, slots=True)
class PlayerSeated:
    """A player took a free seat of a waiting match (a join, or an invitation's accept),
    emitted under the match lock before anything else follows from it (the start, the version
    bump). The apps above games may refuse the seat by raising a ``DomainError``, which rolls
    the join back: players refuses a table where the newcomer and someone seated there block
    each other (games cannot know blocks)."""

    match_id: int
    seat: int
    user_id: int


@dataclass(frozen=True, slots=True)
class AnalysisReady:
    """A finished match's post-game analysis is ready (``games.services.analysis``)."""

    match_id: int
    version: int
