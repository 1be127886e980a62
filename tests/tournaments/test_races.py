"""Races on the tournament paths, with real threads and connections on the configured database
(SQLite: one writer at a time, ``BEGIN IMMEDIATE``; PostgreSQL: row locks and the membership
constraint). Each race is run several times; every outcome must be one of the serial ones."""

from __future__ import annotations

from datetime import timedelta
from functools import partial
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import User
from core.errors import DomainError
from games.models import Seat
from games.services import match_resign
from tests.support.drills import race
from tests.support.players import Player, player_register
from tournaments import tasks
from tournaments.errors import AlreadyEntered, RegistrationClosed
from tournaments.models import Entry, EntryStatus, Membership, Pairing, Tournament, TournamentRound
from tournaments.services import registration, rounds

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _inline_advance(monkeypatch: pytest.MonkeyPatch, task_recorder: Any) -> None:
    # The advance runs in the thread whose commit asked for it (more racing, not less).
    monkeypatch.setattr(
        tasks.advance_tournament, "delay", lambda tid: rounds.tournament_advance(tid)
    )


def _tournament(owner: Player, **fields: Any) -> Tournament:
    options: dict[str, Any] = {
        "name": "Race cup",
        "format": "knockout",
        "public": False,
        "capacity": 64,
        "starts_at": timezone.now() + timedelta(hours=1),
        "round_seconds": 3600,
    }
    options.update(fields)
    return registration.tournament_create(creator=owner.user, **options)


def _due(tournament: Tournament) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(
        starts_at=timezone.now() - timedelta(seconds=1)
    )


def _team(tournament: Tournament) -> tuple[Player, Player]:
    a, b = player_register(), player_register()
    entry = registration.entry_create(
        tournament_id=tournament.pk, user=a.user, partner=b.user, code=tournament.invite_code
    )
    registration.entry_accept(tournament_id=tournament.pk, entry_id=entry.pk, user=b.user)
    return a, b


def _user_at(match_id: int, seat: int) -> User:
    user = Seat.objects.get(match_id=match_id, index=seat).user
    assert user is not None
    return user


def test_two_entries_for_one_player_make_one_place() -> None:
    owner = player_register()
    for _ in range(3):
        tournament = _tournament(owner)
        player, x, y = player_register(), player_register(), player_register()

        enter = partial(
            registration.entry_create,
            tournament_id=tournament.pk,
            user=player.user,
            code=tournament.invite_code,
        )
        results = race([partial(enter, partner=x.user), partial(enter, partner=y.user)])
        made = [r for r in results if isinstance(r, Entry)]
        refused = [r for r in results if isinstance(r, AlreadyEntered)]
        assert len(made) == 1 and len(refused) == 1, results
        assert Membership.objects.filter(tournament=tournament, user=player.user).count() == 1
        assert Entry.objects.filter(tournament=tournament).count() == 1


def test_a_partner_accepting_while_registration_closes() -> None:
    owner = player_register()
    outcomes = set()
    for _ in range(4):
        tournament = _tournament(owner)
        _team(tournament)
        _team(tournament)
        a, b = player_register(), player_register()
        entry = registration.entry_create(
            tournament_id=tournament.pk, user=a.user, partner=b.user, code=tournament.invite_code
        )
        _due(tournament)
        results = race(
            [
                partial(rounds.tournament_start, tournament.pk),
                partial(
                    registration.entry_accept,
                    tournament_id=tournament.pk,
                    entry_id=entry.pk,
                    user=b.user,
                ),
            ]
        )
        assert results[0] is True, results
        entry.refresh_from_db()
        if isinstance(results[1], Entry):
            # Accepted first: a team of the tournament, seeded and paired.
            outcomes.add("accepted")
            assert entry.status == EntryStatus.CONFIRMED and entry.seed is not None
            assert Pairing.objects.filter(tournament=tournament, team_a=entry).exists() or (
                Pairing.objects.filter(tournament=tournament, team_b=entry).exists()
            )
        else:
            # The start came first: the invitation lapsed, and nobody holds that place.
            outcomes.add("closed")
            assert isinstance(results[1], RegistrationClosed), results
            assert entry.status == EntryStatus.LAPSED and entry.seed is None
            assert not Membership.objects.filter(entry=entry).exists()
    assert outcomes  # each run ended in one of the two serial outcomes


def test_a_round_starting_while_a_result_arrives() -> None:
    owner = player_register()
    for _ in range(3):
        tournament = _tournament(owner, format="swiss", swiss_rounds=2)
        for _ in range(4):
            _team(tournament)
        _due(tournament)
        assert rounds.tournament_start(tournament.pk)
        first, last = Pairing.objects.filter(tournament=tournament).order_by("position")
        assert first.match_id is not None and last.match_id is not None
        match_resign(match_id=first.match_id, user=_user_at(first.match_id, 1))
        # The round's last result and two advances (the sweep's, a lost task's redelivery) at once.
        last_loser = _user_at(last.match_id, 1)
        results = race(
            [
                partial(match_resign, match_id=last.match_id, user=last_loser),
                partial(rounds.tournament_advance, tournament.pk),
                partial(rounds.tournament_advance, tournament.pk),
            ]
        )
        assert not [r for r in results if isinstance(r, BaseException | DomainError)], results
        tournament.refresh_from_db()
        assert tournament.current_round == 2
        assert TournamentRound.objects.filter(tournament=tournament).count() == 2
        second = Pairing.objects.filter(tournament=tournament, round__number=2)
        assert second.count() == 2
        teams = [t for p in second for t in (p.team_a_id, p.team_b_id)]
        assert len(set(teams)) == 4  # every team once
