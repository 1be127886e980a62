"""Identifiers are looked up as sent (issue 23, "every pattern validates the whole value"):
DRF's CharField trims whitespace, so a username or an invite code with a newline, a tab or a
space around it found the account or the table it names. Now such a value names no one."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from rest_framework.test import APIClient

from players.models import Block, Follow
from tests.support.api import API, assert_problem, fingerprint, match_url
from tests.support.players import PASSWORD, Player, create_match

AROUND = ["{}\n", "{}\r\n", "{}\t", "{} ", " {}", "\n{}"]


@pytest.mark.parametrize("shape", AROUND)
def test_login_takes_the_username_as_sent(
    make_player: Callable[..., Player], anon: APIClient, shape: str
) -> None:
    me = make_player()
    name = me.user.username
    response = anon.post(
        f"{API}/auth/login", {"username": shape.format(name), "password": PASSWORD}, format="json"
    )
    assert response.status_code in (400, 401), response.content
    assert "token" not in response.json()
    plain = anon.post(f"{API}/auth/login", {"username": name, "password": PASSWORD}, format="json")
    assert plain.status_code == 200, plain.content


@pytest.mark.parametrize("shape", AROUND)
def test_follows_and_blocks_take_the_username_as_sent(
    make_player: Callable[..., Player], shape: str
) -> None:
    me, other = make_player(), make_player()
    wanted = shape.format(other.user.username)
    for path in ("friends", "blocks"):
        response = me.client.post(f"{API}/me/{path}", {"username": wanted}, format="json")
        assert response.status_code in (400, 404), (path, response.content)
    assert not Follow.objects.exists() and not Block.objects.exists()


@pytest.mark.parametrize("shape", AROUND)
def test_a_private_table_is_joined_only_with_its_code_as_sent(
    make_player: Callable[..., Player], shape: str
) -> None:
    created = create_match(make_player())
    guest = make_player()
    before = fingerprint(created["id"])
    body = {"code": shape.format(created["invite_code"]), "seat": 2}
    response = guest.client.post(match_url(created["id"], "/join"), body, format="json")
    assert_problem(response, 404, "not_found")
    assert fingerprint(created["id"]) == before
