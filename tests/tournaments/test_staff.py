"""Staff in the admin: create, edit before the start, cancel, disqualify or replace a team,
each in the moderation log; staff outside the moderators group and players cannot."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games.models import Match, MatchStatus
from moderation.models import ModerationAction
from tests.support.moderation import moderators_group
from tests.support.players import Player, player_register
from tests.support.tournaments import TournamentDriver
from tournaments.models import Entry, EntryStatus, Membership, Outcome, Pairing, Tournament
from tournaments.services import staff as staff_services


@pytest.fixture
def moderator(db: None) -> Player:
    player = player_register()
    player.user.is_staff = True
    player.user.save(update_fields=["is_staff"])
    player.user.groups.add(moderators_group())
    return player


@pytest.fixture
def mod_client(moderator: Player) -> Client:
    client = Client()
    client.force_login(moderator.user)
    return client


def _action(client: Client, url: str, action: str, ids: list[int], **fields: Any) -> Any:
    return client.post(
        url,
        {"action": action, "_selected_action": ids, "apply": "1", **fields},
    )


def _replace(client: Client, entry: Entry, reason: str, **names: str) -> Any:
    """The admin's replace action on ``entry`` (``leaving``/``joining``, and ``_2`` for a
    second swap)."""
    return _action(
        client, "/admin/tournaments/entry/", "replace_player", [entry.pk], reason=reason, **names
    )


def test_a_moderator_creates_a_tournament_in_the_admin(
    cup: TournamentDriver, mod_client: Client, moderator: Player
) -> None:
    response = mod_client.post(
        "/admin/tournaments/tournament/add/",
        {
            "name": "Eid cup",
            "format": "knockout",
            "ruleset": "gamerules",
            "target": 152,
            "turn_seconds": 60,
            "public": "on",
            "capacity": 16,
            "starts_at_0": "2026-03-02",
            "starts_at_1": "18:00:00",
            "round_seconds": 7200,
            "reason": "",
            "entries-TOTAL_FORMS": 0,
            "entries-INITIAL_FORMS": 0,
            "rounds-TOTAL_FORMS": 0,
            "rounds-INITIAL_FORMS": 0,
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    tournament = Tournament.objects.get(name="Eid cup")
    assert tournament.created_by_id == moderator.id and tournament.public
    assert ModerationAction.objects.get(kind="tournament_create").changes == {
        "tournament": tournament.pk,
        "name": "Eid cup",
    }


def test_the_admin_refuses_what_the_api_refuses(cup: TournamentDriver, mod_client: Client) -> None:
    response = mod_client.post(
        "/admin/tournaments/tournament/add/",
        {
            "name": "Bad",
            "format": "swiss",
            "ruleset": "gamerules",
            "target": 152,
            "turn_seconds": 60,
            "capacity": 1,
            "starts_at_0": "2020-01-01",
            "starts_at_1": "18:00:00",
            "round_seconds": 10,
            "entries-TOTAL_FORMS": 0,
            "entries-INITIAL_FORMS": 0,
            "rounds-TOTAL_FORMS": 0,
            "rounds-INITIAL_FORMS": 0,
        },
    )
    assert response.status_code == 200  # the form again, with its errors
    errors = response.context["adminform"].form.errors
    assert {"capacity", "round_seconds", "starts_at", "swiss_rounds"} <= set(errors)
    assert not Tournament.objects.filter(name="Bad").exists()


def test_edits_before_the_start_are_logged_and_refused_after(
    cup: TournamentDriver, moderator: Player
) -> None:
    tournament = cup.create(moderator, capacity=8)
    staff_services.tournament_edit(
        moderator=moderator.user,
        tournament_id=tournament.pk,
        fields={"capacity": 16},
        reason="more room",
    )
    log = ModerationAction.objects.get(kind="tournament_edit")
    assert log.changes == {"tournament": tournament.pk, "capacity": [8, 16]}
    cup.team(tournament)
    cup.team(tournament)
    cup.start(tournament)
    from core.errors import InvalidInput

    with pytest.raises(InvalidInput):
        staff_services.tournament_edit(
            moderator=moderator.user,
            tournament_id=tournament.pk,
            fields={"capacity": 4},
            reason="too late",
        )
    tournament.refresh_from_db()
    assert tournament.capacity == 16


def test_cancelling_aborts_the_matches_in_play(
    cup: TournamentDriver, moderator: Player, mod_client: Client
) -> None:
    tournament = cup.create(moderator)
    for _ in range(4):
        cup.team(tournament)
    cup.start(tournament)
    with cup.committed():
        response = _action(
            mod_client,
            "/admin/tournaments/tournament/",
            "cancel_tournaments",
            [tournament.pk],
            reason="venue closed",
        )
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.status == "cancelled" and tournament.winner_id is None
    ids = Pairing.objects.filter(tournament=tournament).values_list("match_id", flat=True)
    assert {m.status for m in Match.objects.filter(pk__in=ids)} == {MatchStatus.ABORTED}
    assert ModerationAction.objects.filter(kind="tournament_cancel", reason="venue closed").exists()


def test_a_disqualified_team_loses_its_match_and_is_paired_no_more(
    cup: TournamentDriver, moderator: Player, mod_client: Client
) -> None:
    tournament = cup.create(moderator)
    for _ in range(4):
        cup.team(tournament)
    cup.start(tournament)
    row = Pairing.objects.filter(tournament=tournament).order_by("position").first()
    assert row is not None and row.team_b_id is not None
    with cup.committed():
        response = _action(
            mod_client,
            "/admin/tournaments/entry/",
            "disqualify_teams",
            [row.team_b_id],
            reason="shared hands",
        )
    assert response.status_code == 302
    row.refresh_from_db()
    assert row.winner_id == row.team_a_id and row.outcome == Outcome.FORFEIT
    assert Entry.objects.get(pk=row.team_b_id).status == EntryStatus.DISQUALIFIED
    log = ModerationAction.objects.get(kind="team_disqualify")
    assert log.changes["entry"] == row.team_b_id and log.reason == "shared hands"


def test_a_replaced_player_leaves_the_team_for_the_next_match(
    cup: TournamentDriver, moderator: Player, mod_client: Client
) -> None:
    tournament = cup.create(moderator)
    a, b = cup.team(tournament)
    newcomer = player_register()
    entry = Entry.objects.get(tournament=tournament, player=a.user)
    response = _replace(
        mod_client,
        entry,
        "b is travelling",
        leaving=b.user.username,
        joining=newcomer.user.username,
    )
    assert response.status_code == 302
    entry.refresh_from_db()
    assert entry.partner_id == newcomer.id
    assert set(Membership.objects.filter(entry=entry).values_list("user_id", flat=True)) == {
        a.id,
        newcomer.id,
    }
    assert ModerationAction.objects.get(kind="team_replace").target_user_id == b.id


def test_staff_outside_the_group_and_players_cannot(
    cup: TournamentDriver, moderator: Player
) -> None:
    tournament = cup.create(moderator)
    plain = player_register()
    plain.user.is_staff = True
    plain.user.save(update_fields=["is_staff"])
    client = Client()
    client.force_login(plain.user)
    assert client.get("/admin/tournaments/tournament/").status_code == 403
    _action(
        client, "/admin/tournaments/tournament/", "cancel_tournaments", [tournament.pk], reason="x"
    )
    player = Client()
    player.force_login(player_register().user)
    assert player.get("/admin/tournaments/tournament/").status_code == 302  # to the login
    tournament.refresh_from_db()
    assert tournament.status == "registration"
    assert not ModerationAction.objects.exclude(kind="tournament_create").exists()


def test_the_admin_pages_render_for_a_moderator(
    cup: TournamentDriver, moderator: Player, mod_client: Client
) -> None:
    tournament = cup.create(moderator)
    for _ in range(2):
        cup.team(tournament)
    cup.start(tournament)
    for url in (
        "/admin/tournaments/tournament/",
        f"/admin/tournaments/tournament/{tournament.pk}/change/",
        "/admin/tournaments/entry/",
        "/admin/tournaments/pairing/",
    ):
        assert mod_client.get(url).status_code == 200, url


def test_a_disqualified_team_can_neither_withdraw_nor_enter_again(
    cup: TournamentDriver, moderator: Player
) -> None:
    from tests.support.api import API

    tournament = cup.create(moderator)
    a, b = cup.team(tournament)
    entry = Entry.objects.get(tournament=tournament, player=a.user)
    staff_services.team_disqualify(
        moderator=moderator.user, tournament_id=tournament.pk, entry_id=entry.pk, reason="cheat"
    )
    base = f"{API}/tournaments/{tournament.pk}"
    answer = a.client.delete(f"{base}/entries/mine")
    assert answer.status_code == 409 and answer.json()["code"] == "team_disqualified"
    again = b.client.post(f"{base}/entries", {}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "already_entered"
    entry.refresh_from_db()
    assert entry.status == EntryStatus.DISQUALIFIED


def test_a_replacement_needs_the_leaving_players_place_in_that_team(
    cup: TournamentDriver, moderator: Player
) -> None:
    from core.errors import InvalidInput

    tournament = cup.create(moderator)
    a, _ = cup.team(tournament)
    c, _ = cup.team(tournament)
    entry = Entry.objects.get(tournament=tournament, player=a.user)
    with pytest.raises(InvalidInput):  # c plays in the other team
        staff_services.team_replace(
            moderator=moderator.user,
            tournament_id=tournament.pk,
            entry_id=entry.pk,
            swaps=[(c.user, player_register().user)],
            reason="wrong team",
        )
    assert Membership.objects.filter(tournament=tournament, user=c.user).exists()


def test_a_team_replacement_is_all_or_none(cup: TournamentDriver, moderator: Player) -> None:
    from core.errors import InvalidInput

    tournament = cup.create(moderator)
    a, b = cup.team(tournament)
    c, _ = cup.team(tournament)
    x = player_register()
    entry = Entry.objects.get(tournament=tournament, player=a.user)
    with pytest.raises(InvalidInput):  # the first swap is good, the second names c
        staff_services.team_replace(
            moderator=moderator.user,
            tournament_id=tournament.pk,
            entry_id=entry.pk,
            swaps=[(a.user, x.user), (c.user, player_register().user)],
            reason="half a team",
        )
    entry.refresh_from_db()
    assert (entry.player_id, entry.partner_id) == (a.id, b.id)
    assert set(Membership.objects.filter(entry=entry).values_list("user_id", flat=True)) == {
        a.id,
        b.id,
    }
    assert not ModerationAction.objects.filter(kind="team_replace").exists()


def test_a_cancelled_tournaments_aborted_matches_decide_nothing(
    cup: TournamentDriver, moderator: Player
) -> None:
    tournament = cup.create(moderator)
    for _ in range(2):
        cup.team(tournament)
    cup.start(tournament)
    cup.do(
        staff_services.tournament_cancel,
        moderator=moderator.user,
        tournament_id=tournament.pk,
        reason="storm",
    )
    row = Pairing.objects.get(tournament=tournament)
    assert row.winner_id is None and row.outcome == ""
    assert row.match is not None and row.match.status == MatchStatus.ABORTED
    assert not tournament.rounds.filter(status="running").exists()


def test_a_whole_team_is_replaced_by_another_pair(
    cup: TournamentDriver, moderator: Player, mod_client: Client
) -> None:
    tournament = cup.create(moderator)
    a, b = cup.team(tournament)
    x, y = player_register(), player_register()
    entry = Entry.objects.get(tournament=tournament, player=a.user)
    response = _replace(
        mod_client,
        entry,
        "the team could not travel",
        leaving=a.user.username,
        joining=x.user.username,
        leaving_2=b.user.username,
        joining_2=y.user.username,
    )
    assert response.status_code == 302
    entry.refresh_from_db()
    assert (entry.player_id, entry.partner_id) == (x.id, y.id)
    assert set(
        Membership.objects.filter(tournament=tournament).values_list("user_id", flat=True)
    ) == {
        x.id,
        y.id,
    }
    assert ModerationAction.objects.filter(kind="team_replace").count() == 2
