"""Invitations are bounded (issue 23, part 7), each one being a push to someone: an inviter
sends at most ``INVITATIONS["PER_HOUR"]`` in any hour (``429 invitation_rate_limited`` with
``Retry-After``, counted on the injected clock), a table has no more open invitations than free
seats (``409 table_invitations_full``), and a player holds at most
``INVITATIONS["OPEN_PER_INVITEE"]`` open invitations (``409 invitee_invitations_full``).

The finding replayed: 15 invitations in about a second, 10 to a table with 3 free seats.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from players.models import Invitation
from tests.support.api import API, assert_problem, match_url
from tests.support.clock import FakeClock
from tests.support.players import Player, create_match
from tests.support.social import community

pytestmark = pytest.mark.django_db


def invite(player: Player, match_id: int, invitee: Player) -> Any:
    url = match_url(match_id, "/invitations")
    return player.client.post(url, {"username": invitee.user.username}, format="json")


def decline(player: Player, invitation_id: int) -> None:
    response = player.client.post(f"{API}/invitations/{invitation_id}/decline", format="json")
    assert response.status_code == 200, response.content


@pytest.fixture
def limits(settings: Any) -> Callable[..., None]:
    def set_limits(**values: int) -> None:
        settings.INVITATIONS = {**settings.INVITATIONS, **values}

    return set_limits


def test_an_inviter_sends_at_most_the_hourly_budget_then_is_told_when_to_retry(
    make_player: Callable[..., Player], clock: FakeClock, limits: Callable[..., None]
) -> None:
    limits(PER_HOUR=3)
    host = make_player()
    tables = [create_match(host)["id"] for _ in range(2)]
    guests = [make_player() for _ in range(5)]
    sent = []
    for table, guest in zip([tables[0], tables[0], tables[1]], guests, strict=False):
        response = invite(host, table, guest)
        assert response.status_code == 201, response.content
        sent.append(response.json())
        clock.advance(10)
    # Answered invitations still count: each one was a push.
    decline(guests[0], sent[0]["id"])
    before = community()
    refused = invite(host, tables[1], guests[3])
    assert_problem(refused, 429, "invitation_rate_limited")
    assert refused["Retry-After"] == str(3600 - 30)  # when the first leaves the hour
    assert community() == before
    clock.advance(3600 - 30 - 1)
    assert invite(host, tables[1], guests[3])["Retry-After"] == "1"
    clock.advance(1)
    assert invite(host, tables[1], guests[3]).status_code == 201
    assert_problem(invite(host, tables[1], guests[4]), 429, "invitation_rate_limited")


@pytest.mark.usefixtures("no_throttling")  # the request budgets are not what is tested
def test_the_default_budget_stops_a_burst(make_player: Callable[..., Player]) -> None:
    host = make_player()
    tables = [create_match(host)["id"] for _ in range(11)]  # three free seats each
    answers = [invite(host, tables[i // 3], make_player()).status_code for i in range(32)]
    assert answers == [201] * 30 + [429] * 2  # 30 an hour by default


def test_a_table_has_no_more_open_invitations_than_free_seats(
    make_player: Callable[..., Player],
) -> None:
    host = make_player()
    created = create_match(host, visibility="public", bots={"1": "easy"})  # two free seats
    guests = [make_player() for _ in range(3)]
    first = invite(host, created["id"], guests[0]).json()
    assert invite(host, created["id"], guests[1]).status_code == 201
    before = community()
    assert_problem(invite(host, created["id"], guests[2]), 409, "table_invitations_full")
    assert community() == before
    decline(guests[0], first["id"])
    assert invite(host, created["id"], guests[2]).status_code == 201
    # A seat filled by someone else leaves one free seat for two open invitations.
    late = make_player()
    assert late.client.post(match_url(created["id"], "/join"), {}, format="json").status_code
    assert_problem(invite(host, created["id"], guests[0]), 409, "table_invitations_full")


def test_a_player_holds_a_bounded_number_of_open_invitations(
    make_player: Callable[..., Player], limits: Callable[..., None]
) -> None:
    limits(OPEN_PER_INVITEE=2)
    layla = make_player()
    hosts = [make_player() for _ in range(3)]
    tables = [create_match(h)["id"] for h in hosts]
    first = invite(hosts[0], tables[0], layla).json()
    assert invite(hosts[1], tables[1], layla).status_code == 201
    before = community()
    assert_problem(invite(hosts[2], tables[2], layla), 409, "invitee_invitations_full")
    assert community() == before
    decline(layla, first["id"])
    assert invite(hosts[2], tables[2], layla).status_code == 201
    assert Invitation.objects.filter(invitee=layla.user, status="pending").count() == 2
