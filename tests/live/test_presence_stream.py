"""Presence from real streams (issue 27, point 5): a friend's streams opening and closing make
them online, in a public match (a private one shows online) and offline, in
``GET /me/friends`` and as ``presence`` messages on their followers' ``/ws/v1/me``; none for
a player who hides it or across a block; and the marks are renewed in one write a process per
round, never a write a connection."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from accounts.models import User
from live import asyncapi
from players import presence
from players.models import Block, Follow
from tests.live.test_asyncapi import _validator
from tests.support.live import Stream, ThreadServer
from tests.support.players import Player, player_register
from tests.support.social import me

pytestmark = pytest.mark.django_db(transaction=True)

FRIENDS = me("/friends")


def _until(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "presence did not change in time"
        time.sleep(0.02)


def _state(player: Player) -> presence.Presence:
    return presence.presence_of([player.id])[player.id]


def _follow(player: Player, other: Player) -> None:
    answer = player.client.post(FRIENDS, {"username": other.user.username}, format="json")
    assert answer.status_code == 201, answer.content


def _inbox(server: ThreadServer, player: Player) -> Stream:
    """``player``'s /ws/v1/me, once it is in its user group (its presence is marked after)."""
    stream = Stream(f"{server.url}/ws/v1/me", player.token)
    _until(lambda: _state(player) != presence.NOWHERE)
    return stream


def _quiet(stream: Stream, seconds: float = 1.0) -> None:
    """Nothing arrives on ``stream`` for ``seconds``."""
    try:
        message = stream.next(timeout=seconds)
    except TimeoutError:
        return
    raise AssertionError(f"unexpected message {message}")


def _listed(player: Player, friend: Player) -> dict[str, Any]:
    answer = player.client.get(FRIENDS)
    assert answer.status_code == 200, answer.content
    (entry,) = [f for f in answer.json()["results"] if f["username"] == friend.user.username]
    return dict(entry)


def test_followers_hear_a_friend_come_online_play_a_public_match_and_go_offline(
    stream_server: ThreadServer, table: Callable[..., Any]
) -> None:
    document = asyncapi.document()
    check = _validator(document, "PresenceMessage")
    view, players = table(visibility="public")
    layla = players[0]
    follower, stranger = player_register(), player_register()
    _follow(follower, layla)
    heard, unheard = _inbox(stream_server, follower), _inbox(stream_server, stranger)
    assert _listed(follower, layla)["presence"] == "offline"

    home = Stream(f"{stream_server.url}/ws/v1/me", layla.token)
    online = heard.next()
    check.validate(online)
    assert online | {"last_seen": None} == {
        "type": "presence",
        "username": layla.user.username,
        "presence": "online",
        "match_id": None,
        "last_seen": None,
    }
    assert online["last_seen"] is not None  # seen now
    assert _listed(follower, layla)["presence"] == "online"

    table_stream = Stream(f"{stream_server.url}/ws/v1/matches/{view['id']}", layla.token)
    table_stream.until_view(view["version"])
    playing = heard.next()
    check.validate(playing)
    assert (playing["presence"], playing["match_id"]) == ("in_match", view["id"])
    listed = _listed(follower, layla)
    assert (listed["presence"], listed["match_id"]) == ("in_match", view["id"])

    table_stream.close()
    back = heard.next()
    assert (back["presence"], back["match_id"]) == ("online", None)
    home.close()
    gone = heard.next()
    check.validate(gone)
    assert (gone["presence"], gone["match_id"]) == ("offline", None)
    seen = User.objects.get(pk=layla.id).last_seen_at
    assert seen is not None and gone["last_seen"] == seen.isoformat().replace("+00:00", "Z")
    assert _listed(follower, layla) | {"since": None} == {
        "username": layla.user.username,
        "display_name": layla.user.display_name,
        "avatar": None,
        "since": None,
        "presence": "offline",
        "match_id": None,
        "last_seen": gone["last_seen"],
    }
    # Someone who does not follow layla heard nothing of it.
    _quiet(unheard, 0.5)


def test_a_private_match_shows_online_and_a_second_stream_changes_nothing(
    stream_server: ThreadServer, table: Callable[..., Any]
) -> None:
    view, players = table()  # private
    layla = players[0]
    follower = player_register()
    _follow(follower, layla)
    heard = _inbox(stream_server, follower)
    first = Stream(f"{stream_server.url}/ws/v1/matches/{view['id']}", layla.token)
    first.until_view(view["version"])
    assert heard.next()["presence"] == "online"
    second = Stream(f"{stream_server.url}/ws/v1/me", layla.token)
    _quiet(heard, 0.5)
    listed = _listed(follower, layla)
    assert (listed["presence"], listed["match_id"]) == ("online", None)
    first.close()
    _quiet(heard, 0.5)  # still online: the other stream is open
    second.close()
    assert heard.next()["presence"] == "offline"


def test_a_player_who_hides_presence_sends_no_events_and_shows_offline(
    stream_server: ThreadServer, table: Callable[..., Any]
) -> None:
    view, players = table(visibility="public")
    layla = players[0]
    follower = player_register()
    _follow(follower, layla)
    answer = layla.client.patch(me(""), {"show_presence": False}, format="json")
    assert answer.status_code == 200 and answer.json()["show_presence"] is False
    heard = _inbox(stream_server, follower)
    stream = Stream(f"{stream_server.url}/ws/v1/matches/{view['id']}", layla.token)
    stream.until_view(view["version"])
    _until(lambda: _state(layla) == presence.Presence("in_match", view["id"]))
    assert _listed(follower, layla) | {"since": None} == {
        "username": layla.user.username,
        "display_name": layla.user.display_name,
        "avatar": None,
        "since": None,
        "presence": "offline",
        "match_id": None,
        "last_seen": None,
    }
    stream.close()
    _until(lambda: _state(layla) == presence.NOWHERE)
    _quiet(heard, 0.5)
    # Shown again: the next change is heard.
    layla.client.patch(me(""), {"show_presence": True}, format="json")
    again = Stream(f"{stream_server.url}/ws/v1/me", layla.token)
    assert heard.next()["presence"] == "online"
    again.close()


def test_blocked_players_hear_nothing_either_way(stream_server: ThreadServer) -> None:
    layla, blocked_by_layla, blocks_layla = (player_register() for _ in range(3))
    for follower in (blocked_by_layla, blocks_layla):
        _follow(follower, layla)
    Block.objects.create(blocker=layla.user, blocked=blocked_by_layla.user)
    Block.objects.create(blocker=blocks_layla.user, blocked=layla.user)
    # A block ends follows; rows written as a race could leave them must still show nothing.
    for follower in (blocked_by_layla, blocks_layla):
        Follow.objects.get_or_create(follower=follower.user, followed=layla.user)
    streams = [_inbox(stream_server, p) for p in (blocked_by_layla, blocks_layla)]
    home = Stream(f"{stream_server.url}/ws/v1/me", layla.token)
    _until(lambda: _state(layla) == presence.Presence("online"))
    for follower, stream in zip((blocked_by_layla, blocks_layla), streams, strict=True):
        _quiet(stream, 0.5)
        listed = _listed(follower, layla)
        assert (listed["presence"], listed["last_seen"]) == ("offline", None)
    home.close()
    for stream in streams:
        _quiet(stream, 0.5)


def test_no_write_per_heartbeat_one_renewal_a_round_for_every_connection(
    stream_server: ThreadServer, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.LIVE = {**settings.LIVE, "RECHECK_SECONDS": 0.05}
    monkeypatch.setattr(presence, "RENEW_SECONDS", 0.2)
    calls: dict[str, list[Any]] = {"set": [], "leave": [], "renew": []}
    for name in ("set", "leave", "renew"):
        real = getattr(presence, f"presence_{name}")

        def counting(*args: Any, _real: Any = real, _name: str = name) -> Any:
            calls[_name].append(args)
            return _real(*args)

        monkeypatch.setattr(presence, f"presence_{name}", counting)
    players = [player_register() for _ in range(3)]
    streams = [Stream(f"{stream_server.url}/ws/v1/me", p.token) for p in players for _ in range(2)]
    _until(lambda: all(_state(p) == presence.Presence("online") for p in players))
    seen_before = list(User.objects.order_by("pk").values_list("pk", "last_seen_at"))
    started = len(calls["renew"])
    time.sleep(1.5)  # about seven renewal rounds
    renewals = calls["renew"][started:]
    assert 2 <= len(renewals) <= 10, len(renewals)
    # Each round renews every user of the process at once: one call, not one a connection.
    ids = {p.id for p in players}
    assert all(ids <= set(users) for (users,) in renewals), renewals
    # A write on a change only: the first stream of each user, none for the second, none
    # while they stay; no row of the database changes while connected.
    assert sorted(user_id for user_id, _ in calls["set"]) == sorted(ids)
    assert calls["leave"] == []
    assert list(User.objects.order_by("pk").values_list("pk", "last_seen_at")) == seen_before
    for stream in streams:
        stream.close()
    _until(lambda: all(_state(p) == presence.NOWHERE for p in players))
    # One leave a user (their last stream), each writing last_seen once.
    assert sorted(user_id for (user_id,) in calls["leave"]) == sorted(ids)
    assert all(User.objects.get(pk=p.id).last_seen_at is not None for p in players)
