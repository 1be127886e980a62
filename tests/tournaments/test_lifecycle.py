"""A tournament from registration to its winner, through the services as the API and beat call
them (docs/tournaments.md)."""

from __future__ import annotations

from typing import Any

from games.models import Match, MatchStatus, Seat
from tests.support.players import Player
from tests.support.tournaments import TournamentDriver
from tournaments.models import (
    Entry,
    EntryStatus,
    Membership,
    Outcome,
    Pairing,
    Tournament,
    TournamentRound,
    TournamentStatus,
)
from tournaments.selectors import standings_json


def _pairings(tournament: Tournament, number: int) -> list[Pairing]:
    return list(
        Pairing.objects.filter(tournament=tournament, round__number=number).order_by("position")
    )


def _loser_of(row: Pairing) -> Any:
    """A player of team B, so team A wins (team A sits in seats 0 and 2)."""
    return Seat.objects.get(match_id=_match_id(row), index=1).user


def _seeds(rows: list[Pairing]) -> list[tuple[int | None, int | None]]:
    return [(p.team_a.seed, p.team_b.seed if p.team_b else None) for p in rows]


def _match_id(row: Pairing) -> int:
    assert row.match_id is not None
    return row.match_id


def test_a_knockout_of_five_teams_runs_to_its_winner(cup: TournamentDriver, staff: Player) -> None:
    tournament = cup.create(staff)
    teams = [cup.team(tournament) for _ in range(5)]
    cup.start(tournament)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING and tournament.current_round == 1
    seeds = list(Entry.objects.filter(tournament=tournament).order_by("seed"))
    assert [e.seed for e in seeds] == [1, 2, 3, 4, 5]
    # Bracket of 8: seeds 1, 2 and 3 have byes; 4 meets 5.
    first = _pairings(tournament, 1)
    assert [(p.team_a.seed, p.team_b.seed if p.team_b else None) for p in first] == [
        (1, None),
        (4, 5),
        (2, None),
        (3, None),
    ]
    assert [p.outcome for p in first] == ["bye", "", "bye", "bye"]
    match = Match.objects.get(pk=_match_id(first[1]))
    assert match.status == MatchStatus.ACTIVE and match.rated
    seats = {s.index: s.user_id for s in Seat.objects.filter(match=match)}
    four, five = seeds[3], seeds[4]
    assert (seats[0], seats[2]) == (four.player_id, four.partner_id)
    assert (seats[1], seats[3]) == (five.player_id, five.partner_id)

    cup.resign(_match_id(first[1]), _loser_of(first[1]))  # 4 beats 5
    tournament.refresh_from_db()
    assert tournament.current_round == 2
    second = _pairings(tournament, 2)
    assert _seeds(second) == [(1, 4), (2, 3)]
    for row in second:
        cup.resign(_match_id(row), _loser_of(row))
    final = _pairings(tournament, 3)
    assert _seeds(final) == [(1, 2)]
    cup.resign(_match_id(final[0]), _loser_of(final[0]))
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    assert tournament.winner_id == seeds[0].pk
    assert TournamentRound.objects.filter(tournament=tournament, status="finished").count() == 3
    table = standings_json(tournament)["standings"]
    assert table[0]["entry"]["id"] == seeds[0].pk and table[0]["eliminated_in"] is None
    eliminated = {row["entry"]["seed"]: row["eliminated_in"] for row in table}
    assert eliminated == {1: None, 2: 3, 3: 2, 4: 2, 5: 1}
    assert len(teams) == 5


def test_a_swiss_never_pairs_two_teams_twice(cup: TournamentDriver, staff: Player) -> None:
    tournament = cup.create(staff, format="swiss", swiss_rounds=3)
    for _ in range(4):
        cup.team(tournament)
    cup.start(tournament)
    met: set[frozenset[int]] = set()
    for number in (1, 2, 3):
        rows = _pairings(tournament, number)
        assert len(rows) == 2
        for row in rows:
            assert row.team_b_id is not None
            pair = frozenset((row.team_a_id, row.team_b_id))
            assert pair not in met
            met.add(pair)
            cup.resign(_match_id(row), _loser_of(row))
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    table = standings_json(tournament)["standings"]
    assert tournament.winner_id == table[0]["entry"]["id"]
    assert sorted(row["points"] for row in table) == sorted(
        Pairing.objects.filter(tournament=tournament, winner=row_id).count()
        for row_id in Entry.objects.filter(tournament=tournament).values_list("pk", flat=True)
    )
    assert len(met) == 6  # every pair of the four met once


def test_solo_entries_are_paired_by_rating_and_the_unanswered_lapse(
    cup: TournamentDriver, staff: Player
) -> None:
    from players.models import Rating
    from tests.support.players import player_register
    from tournaments.services.registration import entry_create

    tournament = cup.create(staff)
    solos = [player_register() for _ in range(5)]
    for rank, player in enumerate(solos):
        Rating.objects.create(user=player.user, ruleset="gamerules", ordinal=30.0 - rank)
        cup.do(entry_create, tournament_id=tournament.pk, user=player.user, partner=None)
    invited, silent = player_register(), player_register()
    cup.do(entry_create, tournament_id=tournament.pk, user=invited.user, partner=silent.user)
    cup.team(tournament)
    cup.start(tournament)
    confirmed = Entry.objects.filter(tournament=tournament, status=EntryStatus.CONFIRMED)
    pairs = {frozenset(e.members) for e in confirmed}
    ids = [p.id for p in solos]
    assert frozenset(ids[0:2]) in pairs and frozenset(ids[2:4]) in pairs  # best two, next two
    assert len(pairs) == 3
    lapsed = Entry.objects.filter(tournament=tournament, status=EntryStatus.LAPSED)
    assert {e.player_id for e in lapsed} >= {ids[4], invited.id}


def test_too_few_teams_cancel_the_tournament(cup: TournamentDriver, staff: Player) -> None:
    tournament = cup.create(staff)
    cup.team(tournament)
    cup.start(tournament)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.CANCELLED
    assert tournament.end_note == "too few teams"
    assert not Pairing.objects.filter(tournament=tournament).exists()


def test_a_round_past_its_deadline_is_adjudicated_by_the_score_then_the_seed(
    cup: TournamentDriver, staff: Player
) -> None:
    from tournaments.tasks import sweep_tournaments

    tournament = cup.create(staff, round_seconds=3600)
    for _ in range(4):
        cup.team(tournament)
    cup.start(tournament)
    rows = _pairings(tournament, 1)
    Match.objects.filter(pk=_match_id(rows[0])).update(score_team0=40, score_team1=90)
    cup.clock.advance(3599)
    with cup.committed():
        assert sweep_tournaments()["decided"] == 0
    cup.clock.advance(2)
    with cup.committed():
        assert sweep_tournaments()["decided"] == 2
    rows = _pairings(tournament, 1)
    assert [r.outcome for r in rows] == [Outcome.ADJUDICATED] * 2
    assert rows[0].winner_id == rows[0].team_b_id  # 90 to 40
    # 0-0: the better seed (team A is the better seed of a first-round knockout pairing).
    assert rows[1].winner_id == rows[1].team_a_id
    assert Match.objects.get(pk=_match_id(rows[0])).end_reason == "adjudicated"
    tournament.refresh_from_db()
    assert tournament.current_round == 2


def test_a_team_withdrawing_mid_round_loses_its_match(cup: TournamentDriver, staff: Player) -> None:
    from tournaments.services.leaving import entry_withdraw

    tournament = cup.create(staff)
    teams = [cup.team(tournament) for _ in range(4)]
    cup.start(tournament)
    row = _pairings(tournament, 1)[0]
    leaver = row.team_b
    assert leaver is not None
    player = next(p for t in teams for p in t if p.id == leaver.player_id)
    cup.do(entry_withdraw, tournament_id=tournament.pk, user=player.user)
    row.refresh_from_db()
    assert row.winner_id == row.team_a_id and row.outcome == Outcome.FORFEIT
    assert Match.objects.get(pk=_match_id(row)).status == MatchStatus.FINISHED


def test_a_player_missing_their_first_turn_forfeits_for_the_team(
    cup: TournamentDriver, staff: Player
) -> None:
    from games.services import turn_expire

    tournament = cup.create(staff, turn_seconds=60)
    for _ in range(2):
        cup.team(tournament)
    cup.start(tournament)
    row = _pairings(tournament, 1)[0]
    match = Match.objects.get(pk=_match_id(row))
    late_seat = match.to_act
    assert late_seat is not None
    cup.clock.advance(61)
    with cup.committed():
        assert turn_expire(match_id=match.pk, expected_version=match.version)
    row.refresh_from_db()
    assert row.outcome == Outcome.FORFEIT
    losing = row.team_a_id if late_seat % 2 == 0 else row.team_b_id
    assert row.winner_id != losing
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED  # a final of two teams


def test_a_deleted_account_withdraws_its_team(cup: TournamentDriver, staff: Player) -> None:
    from tests.support.api import API
    from tests.support.players import PASSWORD, player_register
    from tournaments.services.registration import entry_create

    tournament = cup.create(staff)
    a, b = cup.team(tournament)
    inviter, invitee = player_register(), player_register()
    cup.do(entry_create, tournament_id=tournament.pk, user=inviter.user, partner=invitee.user)
    for leaving in (b, invitee):
        with cup.committed():
            answer = leaving.client.delete(f"{API}/me", {"password": PASSWORD}, format="json")
        assert answer.status_code == 204
    entry = Entry.objects.get(tournament=tournament, player=a.user)
    assert entry.status == EntryStatus.WITHDRAWN
    invitation = Entry.objects.get(tournament=tournament, player=inviter.user)
    assert invitation.status == EntryStatus.LAPSED
    assert not Membership.objects.filter(tournament=tournament, user=b.user).exists()
