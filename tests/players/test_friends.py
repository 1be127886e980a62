"""Friends: follow a player by username, list whom you follow, stop following. Yourself, an
unknown or a deleted account, and a blocked player (either way) are refused."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from players.models import Block, Follow
from tests.support.api import assert_field_errors, assert_problem
from tests.support.players import Player
from tests.support.social import GATE, community, erase, gate_client, me

pytestmark = pytest.mark.django_db

FRIENDS = me("/friends")


def follow(player: Player, username: str) -> Any:
    return player.client.post(FRIENDS, {"username": username}, format="json")


def test_follow_list_and_unfollow(make_player: Callable[..., Player]) -> None:
    me_, layla, omar = make_player(), make_player(), make_player()
    first = follow(me_, layla.user.username)
    assert first.status_code == 201, first.content
    assert first.json()["username"] == layla.user.username
    assert first.json()["display_name"] == layla.user.display_name
    assert follow(me_, layla.user.username).status_code == 200  # again: nothing changes
    assert follow(me_, omar.user.username).status_code == 201
    listed = me_.client.get(FRIENDS).json()
    assert [f["username"] for f in listed["results"]] == [omar.user.username, layla.user.username]
    assert set(listed["results"][0]) == {
        *("username", "display_name", "avatar", "since"),
        *("presence", "match_id", "last_seen"),
    }
    # Following is one way: layla follows no one.
    assert layla.client.get(FRIENDS).json()["results"] == []
    gone = me_.client.delete(f"{FRIENDS}/{layla.user.username}")
    assert gone.status_code == 204
    assert [f["username"] for f in me_.client.get(FRIENDS).json()["results"]] == [
        omar.user.username
    ]
    assert_problem(me_.client.delete(f"{FRIENDS}/{layla.user.username}"), 404, "not_following")


def test_the_list_is_paginated(make_player: Callable[..., Player]) -> None:
    me_ = make_player()
    others = [make_player() for _ in range(3)]
    for other in others:
        assert follow(me_, other.user.username).status_code == 201
    page = me_.client.get(FRIENDS, {"page_size": 2}).json()
    assert len(page["results"]) == 2 and page["next"]
    rest = me_.client.get(page["next"]).json()
    names = [f["username"] for f in page["results"] + rest["results"]]
    assert sorted(names) == sorted(o.user.username for o in others) and rest["next"] is None


def test_refusals_have_their_codes_and_change_nothing(make_player: Callable[..., Player]) -> None:
    me_, gone, blocker, blocked = (make_player() for _ in range(4))
    erase(gone)
    Block.objects.create(blocker=blocker.user, blocked=me_.user)
    Block.objects.create(blocker=me_.user, blocked=blocked.user)
    before = community()
    for name in (me_.user.username, me_.user.username.upper()):  # usernames ignore case
        refused = assert_problem(follow(me_, name), 422, "cannot_follow_self")
        assert [e["field"] for e in refused["errors"]] == ["username"]
    assert_problem(follow(me_, "nobody-at-all"), 404, "user_not_found")
    assert_problem(follow(me_, gone.user.username), 404, "user_not_found")
    one = assert_problem(follow(me_, blocker.user.username), 409, "user_blocked")
    other = assert_problem(follow(me_, blocked.user.username), 409, "user_blocked")
    assert one == other  # the answer does not tell which side blocked
    assert_field_errors(me_.client.post(FRIENDS, {}, format="json"), {"username": "required"})
    assert_field_errors(
        me_.client.post(FRIENDS, {"username": "x", "nick": 1}, format="json"),
        {"nick": "unknown_field"},
    )
    assert_problem(me_.client.delete(f"{FRIENDS}/{gone.user.username}"), 404, "not_following")
    assert community() == before


def test_a_deleted_friend_leaves_the_list(make_player: Callable[..., Player]) -> None:
    me_, friend = make_player(), make_player()
    assert follow(me_, friend.user.username).status_code == 201
    erase(friend)
    assert me_.client.get(FRIENDS).json()["results"] == []


@pytest.mark.parametrize("persona", list(GATE))
def test_gated_callers_get_nothing_and_change_nothing(
    make_player: Callable[..., Player], persona: str
) -> None:
    caller, friend = make_player(), make_player()
    Follow.objects.create(follower=caller.user, followed=friend.user)
    client = gate_client(persona, caller)
    status, code = GATE[persona]
    before = community()
    assert_problem(client.get(FRIENDS), status, code)
    answer = client.post(FRIENDS, {"username": friend.user.username}, format="json")
    assert_problem(answer, status, code)
    assert_problem(client.delete(f"{FRIENDS}/{friend.user.username}"), status, code)
    assert community() == before
