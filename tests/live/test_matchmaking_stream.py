"""Quick play's placed players hear of their match on the player stream (``/ws/v1/me``), by
the ``match_started`` inbox event every started match sends its seated players."""

from __future__ import annotations

from collections.abc import Callable

from tests.support.api import API
from tests.support.live import Stream, ThreadServer
from tests.support.players import Player

URL = f"{API}/matchmaking"


def test_a_placed_player_hears_match_started_on_the_player_stream(
    stream_server: ThreadServer, make_player: Callable[..., Player]
) -> None:
    players = [make_player() for _ in range(4)]
    inboxes = [Stream(f"{stream_server.url}/ws/v1/me", p.token) for p in players]
    for player in players:
        body = {"ruleset": "gamerules", "turn_seconds": 30}
        assert player.client.post(URL, body, format="json").status_code == 201
    match_id = players[0].client.get(URL).json()["match_id"]
    assert match_id is not None
    for inbox in inboxes:
        # The seat to act also hears of its turn (the start emits that first).
        event = inbox.next()
        if event["event"] == "your_turn":
            event = inbox.next()
        assert event["type"] == "inbox", event
        assert event["event"] == "match_started" and event["match_id"] == match_id, event
