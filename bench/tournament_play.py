"""Playing a tournament to its end with bots in every seat, in this process: what the scale
test (tests/tournaments/test_scale.py) and the bench (bench/tournaments.py) share.

Every seat of a round's matches is handed to the away bot (``Seat.away``: the easy bot plays
a human seat gone away), and each match is played out by ``games.services.bot_turn_play``, as
the worker's bot task would. The tournament advances itself through its own services: the
result of a round's last match asks for the advance after commit, and the caller registers
how that advance runs (inline here, so its cost can be timed)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from games.models import Match, MatchStatus, Seat
from games.services import bot_turn_play
from tournaments.models import Pairing, Tournament, TournamentRound, TournamentStatus


@dataclass
class RoundTimes:
    """Seconds of tournament work per round (closing it and opening the next), and how long
    after its last result each round was closed."""

    advance: dict[int, float] = field(default_factory=dict)
    lag: dict[int, float] = field(default_factory=dict)


def timed_advancer(advance: Callable[[int], bool], times: RoundTimes) -> Callable[[int], object]:
    """An advancer for ``rounds.advancer_register`` that runs the advance at once and records
    its duration against the round it closed."""

    def run(tournament_id: int) -> object:
        number = Tournament.objects.values_list("current_round", flat=True).get(pk=tournament_id)
        start = time.perf_counter()
        done = advance(tournament_id)
        if done:
            times.advance[number] = time.perf_counter() - start
        return done

    return run


def play_match(match_id: int, limit: int = 2000) -> int:
    """Bots play ``match_id`` to its end; the number of moves made."""
    Seat.objects.filter(match_id=match_id, user__isnull=False).update(away=True)
    for moves in range(limit):
        match = Match.objects.only("status", "version").get(pk=match_id)
        if match.status != MatchStatus.ACTIVE:
            return moves
        if not bot_turn_play(match_id=match_id, expected_version=match.version):
            raise RuntimeError(f"match {match_id}: no bot move at version {match.version}")
    raise RuntimeError(f"match {match_id} did not end within {limit} moves")


def play_tournament(tournament_id: int, rounds_limit: int = 64) -> list[int]:
    """Play every match of every round until the tournament ends; the ids of its matches."""
    played: list[int] = []
    for _ in range(rounds_limit):
        tournament = Tournament.objects.get(pk=tournament_id)
        if tournament.status != TournamentStatus.RUNNING:
            return played
        pending = list(
            Pairing.objects.filter(
                tournament=tournament,
                round__number=tournament.current_round,
                winner__isnull=True,
                match__isnull=False,
            ).values_list("match_id", flat=True)
        )
        if not pending:
            raise RuntimeError(f"round {tournament.current_round} has no match left to play")
        for match_id in pending:
            assert match_id is not None
            play_match(match_id)
            played.append(match_id)
    raise RuntimeError(f"tournament {tournament_id} did not end within {rounds_limit} rounds")


def round_lags(tournament_id: int) -> dict[int, float]:
    """For each closed round: seconds from its last result to its close."""
    out = {}
    for rnd in TournamentRound.objects.filter(
        tournament_id=tournament_id, finished_at__isnull=False
    ):
        last = (
            Pairing.objects.filter(round=rnd)
            .order_by("-finished_at")
            .values_list("finished_at", flat=True)
            .first()
        )
        assert rnd.finished_at is not None
        out[rnd.number] = (rnd.finished_at - last).total_seconds() if last else 0.0
    return out
