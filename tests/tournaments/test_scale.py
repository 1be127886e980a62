"""Tournaments played to the end by bots, at small scale (bench/tournaments.py runs a
256-team knockout and a 64-team Swiss): every match log whole, every round closed as its last
result committed, the standings consistent with the pairings."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.utils import timezone

from bench.tournament_play import play_tournament, round_lags
from games.models import Match, MatchStatus
from tests.support.logs import assert_log_is_whole
from tests.support.players import player_register
from tournaments import tasks
from tournaments.models import Pairing, Tournament, TournamentRound, TournamentStatus
from tournaments.selectors import standings_json
from tournaments.services import registration, rounds

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


@pytest.fixture(autouse=True)
def _inline_advance(monkeypatch: pytest.MonkeyPatch, task_recorder: Any) -> None:
    monkeypatch.setattr(
        tasks.advance_tournament, "delay", lambda tid: rounds.tournament_advance(tid)
    )


def _run(format: str, teams: int, **fields: Any) -> Tournament:
    owner = player_register()
    tournament = registration.tournament_create(
        creator=owner.user,
        name=f"{format} of {teams}",
        format=format,
        public=False,
        capacity=teams,
        starts_at=timezone.now() + timedelta(hours=1),
        round_seconds=3600,
        target=1,  # one round decides a match: the test is about the tournament
        **fields,
    )
    for _ in range(teams):
        a, b = player_register(), player_register()
        entry = registration.entry_create(
            tournament_id=tournament.pk, user=a.user, partner=b.user, code=tournament.invite_code
        )
        registration.entry_accept(tournament_id=tournament.pk, entry_id=entry.pk, user=b.user)
    Tournament.objects.filter(pk=tournament.pk).update(
        starts_at=timezone.now() - timedelta(seconds=1)
    )
    assert rounds.tournament_start(tournament.pk)
    played = play_tournament(tournament.pk)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED and tournament.winner_id is not None
    assert set(Match.objects.filter(pk__in=played).values_list("status", flat=True)) == {
        MatchStatus.FINISHED
    }
    for match_id in played:
        assert_log_is_whole(match_id)
    sweep = settings.CELERY_BEAT_SCHEDULE["tournaments-sweep"]["schedule"]
    assert all(lag <= sweep for lag in round_lags(tournament.pk).values())
    assert not Pairing.objects.filter(tournament=tournament, winner__isnull=True).exists()
    return tournament


def test_a_knockout_of_eight_teams_is_played_to_its_winner() -> None:
    tournament = _run("knockout", 8)
    assert TournamentRound.objects.filter(tournament=tournament).count() == 3
    assert Pairing.objects.filter(tournament=tournament).count() == 4 + 2 + 1
    final = Pairing.objects.get(tournament=tournament, round__number=3)
    assert tournament.winner_id == final.winner_id


def test_a_swiss_of_six_teams_plays_its_three_rounds_without_a_rematch() -> None:
    tournament = _run("swiss", 6, swiss_rounds=3)
    rows = list(Pairing.objects.filter(tournament=tournament))
    assert len(rows) == 9
    met = [frozenset((r.team_a_id, r.team_b_id)) for r in rows]
    assert len(set(met)) == len(met)
    table = standings_json(tournament)["standings"]
    assert tournament.winner_id == table[0]["entry"]["id"]
    # One match point per decided pairing (no byes with six teams).
    assert sum(row["points"] for row in table) == len(rows) == 9
