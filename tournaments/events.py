"""The events a tournament emits (through ``core.events``), inside the transaction that makes
the change. Ids only: the live stream and push tell each player, who reads the rest over HTTP."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class TournamentRoundStarted:
    tournament_id: int
    round: int
    user_ids: tuple[int, ...]  # every player of a team still in the tournament


@dataclass(frozen=True, slots=True)
class TournamentMatchReady:
    """A pairing's match was made: its four players may play."""

    tournament_id: int
    round: int
    match_id: int
    user_ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TournamentFinished:
    tournament_id: int
    user_ids: tuple[int, ...]  # every player who held a confirmed place
