"""Blocks: block a player by username (follows between the two end both ways, open
invitations between them are withdrawn), list them, unblock."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from players.models import Block, Follow, Invitation
from tests.support.api import assert_field_errors, assert_problem, match_url
from tests.support.players import Player, create_match
from tests.support.social import GATE, community, erase, gate_client, me

pytestmark = pytest.mark.django_db

BLOCKS = me("/blocks")


def block(player: Player, username: str) -> Any:
    return player.client.post(BLOCKS, {"username": username}, format="json")


def test_block_list_and_unblock(make_player: Callable[..., Player]) -> None:
    me_, pest = make_player(), make_player()
    first = block(me_, pest.user.username)
    assert first.status_code == 201, first.content
    assert set(first.json()) == {"username", "display_name", "avatar", "since"}
    assert block(me_, pest.user.username).status_code == 200
    assert Block.objects.filter(blocker=me_.user, blocked=pest.user).count() == 1
    assert [b["username"] for b in me_.client.get(BLOCKS).json()["results"]] == [pest.user.username]
    # The blocked player's list does not show who blocks them.
    assert pest.client.get(BLOCKS).json()["results"] == []
    assert me_.client.delete(f"{BLOCKS}/{pest.user.username}").status_code == 204
    assert me_.client.get(BLOCKS).json()["results"] == []
    assert_problem(me_.client.delete(f"{BLOCKS}/{pest.user.username}"), 404, "not_blocked")


def test_a_block_ends_follows_both_ways_and_withdraws_invitations(
    make_player: Callable[..., Player],
) -> None:
    me_, pest, friend = make_player(), make_player(), make_player()
    Follow.objects.create(follower=me_.user, followed=pest.user)
    Follow.objects.create(follower=pest.user, followed=me_.user)
    Follow.objects.create(follower=me_.user, followed=friend.user)
    mine = create_match(me_)
    theirs = create_match(pest)
    to_pest = me_.client.post(
        match_url(mine["id"], "/invitations"), {"username": pest.user.username}, format="json"
    )
    from_pest = pest.client.post(
        match_url(theirs["id"], "/invitations"), {"username": me_.user.username}, format="json"
    )
    assert to_pest.status_code == from_pest.status_code == 201
    assert block(me_, pest.user.username).status_code == 201
    assert list(Follow.objects.values_list("follower", "followed")) == [(me_.id, friend.id)]
    assert set(Invitation.objects.values_list("status", flat=True)) == {"cancelled"}
    assert pest.client.get(me("/invitations")).json()["results"] == []
    assert me_.client.get(me("/invitations")).json()["results"] == []
    # Unblocking brings nothing back.
    me_.client.delete(f"{BLOCKS}/{pest.user.username}")
    assert not Follow.objects.filter(follower=pest.user).exists()


def test_refusals_have_their_codes_and_change_nothing(make_player: Callable[..., Player]) -> None:
    me_, gone = make_player(), make_player()
    erase(gone)
    before = community()
    for name in (me_.user.username, me_.user.username.upper()):  # usernames ignore case
        refused = assert_problem(block(me_, name), 422, "cannot_block_self")
        assert [e["field"] for e in refused["errors"]] == ["username"]
    assert_problem(block(me_, "nobody-at-all"), 404, "user_not_found")
    assert_problem(block(me_, gone.user.username), 404, "user_not_found")
    assert_field_errors(
        me_.client.post(BLOCKS, {"username": 5}, format="json"), {"username": "invalid"}
    )
    assert_problem(me_.client.delete(f"{BLOCKS}/nobody-at-all"), 404, "not_blocked")
    assert community() == before


@pytest.mark.parametrize("persona", list(GATE))
def test_gated_callers_get_nothing_and_change_nothing(
    make_player: Callable[..., Player], persona: str
) -> None:
    caller, pest, other = make_player(), make_player(), make_player()
    Block.objects.create(blocker=caller.user, blocked=pest.user)
    client = gate_client(persona, caller)
    status, code = GATE[persona]
    before = community()
    assert_problem(client.get(BLOCKS), status, code)
    assert_problem(
        client.post(BLOCKS, {"username": other.user.username}, format="json"), status, code
    )
    assert_problem(client.delete(f"{BLOCKS}/{pest.user.username}"), status, code)
    assert community() == before
