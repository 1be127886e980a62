"""The match stream of a spectator is the HTTP spectator's view, one complete trick behind,
message for message; and the table's quick chat reaches the seated (less blocked senders) and
never a spectator, without any version."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from live import asyncapi
from players.models import Block
from tests.live.test_asyncapi import _validator
from tests.support.api import (
    HOKUM_BIDS,
    fix_deal,
    legal_step,
    match_url,
    play,
    state_of,
    view_of,
)
from tests.support.live import Stream, ThreadServer, log_of
from tests.support.players import player_register
from tests.support.spectating import hidden_from_spectator

pytestmark = pytest.mark.django_db(transaction=True)


def nothing_arrives(stream: Stream, wait: float = 0.4) -> bool:
    try:
        message = stream.next(timeout=wait)
    except TimeoutError:
        return True
    raise AssertionError(f"unexpected message {message}")


def test_a_spectators_stream_shows_no_card_before_the_next_trick_is_complete(
    stream_server: ThreadServer, table: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    fix_deal(monkeypatch)
    view, players = table(visibility="public")
    match_id = view["id"]
    spectator = player_register()
    url = f"{stream_server.url}/ws/v1/matches/{match_id}"
    watch = Stream(url, spectator.token)
    seated = Stream(url, players[0].token)
    shown = view_of(spectator, match_id)["version"]
    assert watch.until_view(shown)[-1]["view"] == view_of(spectator, match_id)
    seated.until_view(view["version"])
    script = [(seat, {"type": "bid", "call": call}) for seat, call in HOKUM_BIDS]
    script += [(3, {"type": "double", "call": "pass"}), (1, {"type": "double", "call": "pass"})]
    rng = random.Random(11)
    views_sent = 0
    while state_of(match_id).round_no == 1:
        if script:
            answer = play(players, match_id, *script.pop(0))
        else:
            answer = legal_step(players, match_id, rng, declare_rate=1.0, declines_doubling=True)
        state = state_of(match_id)
        # The seated stream is live: the view of this very version.
        assert seated.until_view(answer["version"])[-1]["version"] == answer["version"]
        http = view_of(spectator, match_id)
        if http["version"] == shown:
            assert nothing_arrives(watch)  # nothing a spectator can see has changed
            continue
        got = watch.until_view(http["version"])
        *moves, last = got
        assert [m["type"] for m in moves] == ["move"] * len(moves)
        assert [m["item"] for m in moves] == [
            item for item in log_of(spectator, match_id) if item["version"] > shown
        ]
        assert last["view"] == http and last["version"] == http["version"]
        if state.round_no == 1:
            items = [m["item"] for m in moves if m["item"]["round"] == 1]
            text = json.dumps(items) + json.dumps(last["view"])
            leaked = sorted(c for c in hidden_from_spectator(state) if f'"{c}"' in text)
            assert not leaked, leaked
        shown = http["version"]
        views_sent += 1
    # Seven tricks seen late, the calls once, the round's end: at least eight views.
    assert views_sent >= 8
    # At the round's end everything is shown: the spectator is back at the present.
    assert shown == view_of(players[0], match_id)["version"]


def test_the_tables_chat_reaches_the_seated_less_blocked_senders_and_never_a_spectator(
    stream_server: ThreadServer, table: Any
) -> None:
    view, players = table(visibility="public")
    match_id = view["id"]
    Block.objects.create(blocker=players[1].user, blocked=players[0].user)
    spectator = player_register()
    url = f"{stream_server.url}/ws/v1/matches/{match_id}"
    streams = [Stream(url, p.token) for p in players]
    watch = Stream(url, spectator.token)
    for stream in streams:
        stream.until_view(view["version"])
    watch.until_view(view_of(spectator, match_id)["version"])

    def send(seat: int, phrase: str) -> dict[str, Any]:
        answer = players[seat].client.post(
            match_url(match_id, "/chat"), {"phrase": phrase}, format="json"
        )
        assert answer.status_code == 201, answer.content
        return dict(answer.json())

    sent = send(0, "hurry_please")
    # The message is the chat log's item, typed: its own id and time, and no version.
    expected = {"type": "chat", **sent}
    assert expected["seat"] == 0 and expected["phrase"] == "hurry_please"
    document = asyncapi.document()
    for seat in (0, 2, 3):
        message = streams[seat].next()
        assert message == expected
        assert "version" not in message
        _validator(document, "ChatMessage").validate(message)
    log = players[0].client.get(match_url(match_id, "/chat")).json()["results"]
    assert [{"type": "chat", **item} for item in log] == [expected]
    sorry = send(2, "sorry")
    assert sorry["id"] > sent["id"]
    # The blocker's next message is the one after the blocked sender's: theirs was skipped.
    assert streams[1].next() == {"type": "chat", **sorry}
    for seat in (0, 2, 3):
        assert streams[seat].next() == {"type": "chat", **sorry}
    # Chat is not a move: no view follows it, and the match version did not change.
    assert view_of(players[0], match_id)["version"] == view["version"]
    for stream in streams:
        assert nothing_arrives(stream)
    assert nothing_arrives(watch)
    # A move afterwards still streams as always, to the spectator too once it may see it.
    seat = view["round"]["to_act"]
    move = view_of(players[seat], match_id)["round"]["legal_moves"][0]
    version = play(players, match_id, seat, move)["version"]
    assert streams[0].until_view(version)[-1]["version"] == version
    assert not any(m["type"] == "chat" for m in watch.received)
