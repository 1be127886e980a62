"""Presence in ``GET /me/friends`` and ``show_presence`` in ``PATCH /me`` (issue 27, point 5),
in process: the marks are the ones a web process writes (players.presence), set here directly;
tests/live/test_presence_stream.py derives them from real streams."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

import pytest

from accounts.models import User
from players import presence
from players.models import Block
from tests.support.api import assert_field_errors, assert_problem
from tests.support.players import PASSWORD, Player
from tests.support.social import GATE, gate_client, me

pytestmark = pytest.mark.django_db

FRIENDS = me("/friends")
ME = me("")


def follow(player: Player, other: Player) -> None:
    answer = player.client.post(FRIENDS, {"username": other.user.username}, format="json")
    assert answer.status_code == 201, answer.content


def friends(player: Player) -> dict[str, dict[str, Any]]:
    answer = player.client.get(FRIENDS)
    assert answer.status_code == 200, answer.content
    return {f["username"]: f for f in answer.json()["results"]}


def shown(friend: dict[str, Any]) -> tuple[str, int | None]:
    return friend["presence"], friend["match_id"]


def test_online_in_a_public_match_and_offline_with_when_last_seen(
    make_player: Callable[..., Player],
) -> None:
    me_, online, playing, gone, never = (make_player() for _ in range(5))
    for other in (online, playing, gone, never):
        follow(me_, other)
    presence.presence_set(online.id, None)
    presence.presence_set(playing.id, 42)
    presence.presence_set(gone.id, None)
    _, after, seen = presence.presence_leave(gone.id)
    assert after == presence.NOWHERE and seen is not None
    listed = friends(me_)
    assert shown(listed[online.user.username]) == ("online", None)
    assert shown(listed[playing.user.username]) == ("in_match", 42)
    assert shown(listed[gone.user.username]) == ("offline", None)
    assert shown(listed[never.user.username]) == ("offline", None)
    # Online: seen now; offline: when the last stream closed; never seen: null.
    assert listed[online.user.username]["last_seen"] is not None
    last = listed[gone.user.username]["last_seen"]
    assert last.endswith("Z") and datetime.fromisoformat(last) == seen
    assert User.objects.get(pk=gone.id).last_seen_at == seen
    assert listed[never.user.username]["last_seen"] is None


def test_a_player_in_two_processes_stays_online_until_both_let_go(
    make_player: Callable[..., Player], monkeypatch: pytest.MonkeyPatch
) -> None:
    me_, layla = make_player(), make_player()
    follow(me_, layla)
    monkeypatch.setattr(presence, "_process", (presence.os.getpid(), "first"))
    assert presence.presence_set(layla.id, None) == (presence.NOWHERE, presence.Presence("online"))
    monkeypatch.setattr(presence, "_process", (presence.os.getpid(), "second"))
    before, after = presence.presence_set(layla.id, 7)
    assert (before, after) == (presence.Presence("online"), presence.Presence("in_match", 7))
    monkeypatch.setattr(presence, "_process", (presence.os.getpid(), "first"))
    before, after, seen = presence.presence_leave(layla.id)
    assert after == presence.Presence("in_match", 7) and seen is None
    assert shown(friends(me_)[layla.user.username]) == ("in_match", 7)
    monkeypatch.setattr(presence, "_process", (presence.os.getpid(), "second"))
    _, after, seen = presence.presence_leave(layla.id)
    assert after == presence.NOWHERE and seen is not None
    assert shown(friends(me_)[layla.user.username]) == ("offline", None)


def test_a_process_that_stops_renewing_lets_its_users_go_offline(
    make_player: Callable[..., Player], monkeypatch: pytest.MonkeyPatch
) -> None:
    me_, layla = make_player(), make_player()
    follow(me_, layla)
    clock = [1000.0]
    monkeypatch.setattr(presence, "_clock", lambda: clock[0])
    presence.presence_set(layla.id, None)
    clock[0] += presence.PRESENCE_SECONDS - 1
    presence.presence_renew({layla.id: None})
    clock[0] += presence.PRESENCE_SECONDS - 1
    assert presence.presence_of([layla.id]) == {layla.id: presence.Presence("online")}
    clock[0] += 2  # no renewal: the process died
    assert presence.presence_of([layla.id]) == {layla.id: presence.NOWHERE}


def test_show_presence_false_hides_it_and_true_shows_it_again(
    make_player: Callable[..., Player],
) -> None:
    me_, layla = make_player(), make_player()
    follow(me_, layla)
    assert layla.client.get(ME).json()["show_presence"] is True
    presence.presence_set(layla.id, 42)
    User.objects.filter(pk=layla.id).update(last_seen_at="2026-03-01T12:00:00Z")
    answer = layla.client.patch(ME, {"show_presence": False}, format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["show_presence"] is False
    assert layla.client.get(ME).json()["show_presence"] is False
    assert friends(me_)[layla.user.username] | {"since": None} == {
        "username": layla.user.username,
        "display_name": layla.user.display_name,
        "avatar": None,
        "since": None,
        "presence": "offline",
        "match_id": None,
        "last_seen": None,
    }
    # Other fields of PATCH /me leave it as it is.
    layla.client.patch(ME, {"display_name": "Layla"}, format="json")
    assert layla.client.get(ME).json()["show_presence"] is False
    layla.client.patch(ME, {"show_presence": True}, format="json")
    assert shown(friends(me_)[layla.user.username]) == ("in_match", 42)


def test_a_block_either_way_hides_presence(make_player: Callable[..., Player]) -> None:
    me_, blocks_me, blocked_by_me, other = (make_player() for _ in range(4))
    for friend in (blocks_me, blocked_by_me, other):
        follow(me_, friend)
        presence.presence_set(friend.id, None)
    # Blocking ends follows; a follow made before the block was stored (a race) still shows
    # nothing: rows written directly.
    Block.objects.create(blocker=blocks_me.user, blocked=me_.user)
    Block.objects.create(blocker=me_.user, blocked=blocked_by_me.user)
    listed = friends(me_)
    for friend in (blocks_me, blocked_by_me):
        entry = listed[friend.user.username]
        assert (entry["presence"], entry["match_id"], entry["last_seen"]) == (
            "offline",
            None,
            None,
        )
    assert shown(listed[other.user.username]) == ("online", None)


@pytest.mark.parametrize("persona", sorted(GATE))
def test_personas_on_friends_and_show_presence(
    make_player: Callable[..., Player], persona: str
) -> None:
    player = make_player()
    status, code = GATE[persona]
    client = gate_client(persona, player)
    assert_problem(client.get(FRIENDS), status, code)
    assert_problem(client.patch(ME, {"show_presence": False}, format="json"), status, code)
    assert User.objects.get(pk=player.id).show_presence is True


def test_a_deleted_account_reads_and_changes_nothing(make_player: Callable[..., Player]) -> None:
    player, follower = make_player(), make_player()
    follow(follower, player)
    presence.presence_set(player.id, None)
    gone = player.client.delete(ME, {"password": PASSWORD}, format="json")
    assert gone.status_code == 204, gone.content
    # Its streams close after the erasure: no last_seen is written back, and it is no friend.
    presence.presence_leave(player.id)
    assert User.objects.get(pk=player.id).last_seen_at is None
    assert friends(follower) == {}
    assert_problem(player.client.get(FRIENDS), 401, "authentication_failed")
    refused = player.client.patch(ME, {"show_presence": False}, format="json")
    assert_problem(refused, 401, "authentication_failed")
    assert User.objects.get(pk=player.id).show_presence is True


def test_a_refused_patch_changes_nothing(make_player: Callable[..., Player]) -> None:
    player = make_player()
    before = User.objects.filter(pk=player.id).values().get()
    for body in (
        {"show_presence": "false"},
        {"show_presence": 0},
        {"show_presence": None},
        {"show_presence": False, "display_name": ""},
        {"show_presence": False, "shown": True},
    ):
        answer = player.client.patch(ME, body, format="json")
        assert_problem(answer, 400, "invalid")
    not_a_boolean = player.client.patch(ME, {"show_presence": "no"}, format="json")
    assert_field_errors(not_a_boolean, {"show_presence": "invalid"})
    # A refusal after the schema (a display name that claims to be a bot) changes nothing
    # either, show_presence included.
    answer = player.client.patch(
        ME, {"show_presence": False, "display_name": "Easy Bot"}, format="json"
    )
    assert_field_errors(
        answer, {"display_name": "reserved"}, status=422, code="display_name_reserved"
    )
    assert User.objects.filter(pk=player.id).values().get() == before
