"""Staff read private matches through the API only by sitting in them (issue 9).

api.md: "Staff see everything in the admin only." On the original code any ``is_staff``
account outside the match (moderators group or not) read a private match's view, move log,
score sheet and records through the API. Now they get the outsider's 404, like anyone else,
and the admin still shows moderators everything.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from tests.support.api import assert_problem, finish_round, match_url
from tests.support.moderation import moderators_group
from tests.support.players import Player

READS = ["", "/moves", "/rounds", "/rounds/1/record", "/record"]


def _make_staff(make_player: Callable[..., Player], kind: str) -> Player:
    player = make_player()
    user = player.user
    user.is_staff = True
    if kind == "superuser":
        user.is_superuser = True
    user.save(update_fields=["is_staff", "is_superuser"])
    if kind == "moderator":
        user.groups.add(moderators_group())
    return player


@pytest.mark.parametrize("kind", ["staff", "superuser", "moderator"])
def test_staff_outside_a_private_match_get_404_on_every_read(
    table: Callable[..., Any], make_player: Callable[..., Player], kind: str
) -> None:
    view, players = table()  # private by default
    finish_round(players, view["id"], random.Random(9))  # so round 1 has a record to leak
    assert players[0].client.get(match_url(view["id"], "/rounds/1/record")).status_code == 200
    staff = _make_staff(make_player, kind)
    for tail in READS:
        response = staff.client.get(match_url(view["id"], tail))
        assert_problem(response, 404, "not_found")
    # Joining needs the invite code, as for anyone.
    join = staff.client.post(match_url(view["id"], "/join"), {}, format="json")
    assert join.status_code == 404


@pytest.mark.parametrize("kind", ["staff", "superuser", "moderator"])
def test_staff_read_public_matches_as_outsiders_with_no_hand(
    table: Callable[..., Any], make_player: Callable[..., Player], kind: str
) -> None:
    view, _ = table(visibility="public")
    staff = _make_staff(make_player, kind)
    seen = staff.client.get(match_url(view["id"]))
    assert seen.status_code == 200
    assert seen.json()["my_seat"] is None
    assert seen.json()["round"]["hand"] == []
    assert staff.client.get(match_url(view["id"], "/moves")).status_code == 200


def test_staff_list_no_private_match_they_do_not_sit_in(
    table: Callable[..., Any], make_player: Callable[..., Player]
) -> None:
    view, _ = table()
    staff = _make_staff(make_player, "superuser")
    listed = staff.client.get("/api/v1/matches").json()["results"]
    assert view["id"] not in [m["id"] for m in listed]


def test_moderators_still_see_the_private_match_in_the_admin(
    table: Callable[..., Any], make_player: Callable[..., Player]
) -> None:
    view, _ = table()
    moderator = _make_staff(make_player, "moderator")
    admin = Client()
    admin.force_login(moderator.user)
    assert admin.get(f"/admin/games/match/{view['id']}/change/").status_code == 200
