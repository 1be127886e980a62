"""A human against three bots with a real Celery worker, over the stream only: the bots commit
in the worker, the stream (in this process) hears of it through the relay of the backend the
suite runs on (the live_event table on SQLite, channels-redis on Redis)."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from tests.support.api import match_url
from tests.support.live import Stream, ThreadServer, log_of
from tests.support.players import Player, create_match
from tests.support.workers import WorkerProcess

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

BOTS = {"1": "easy", "2": "normal", "3": "easy"}


class StreamPlayer:
    """Plays from the views the stream sends; never reads the match over HTTP."""

    def __init__(self, server: ThreadServer, player: Player, match_id: int) -> None:
        self.url = f"{server.url}/ws/v1/matches/{match_id}"
        self.player = player
        self.match_id = match_id
        self.items: list[dict[str, Any]] = []
        self.rng = random.Random(7)
        self.answered: int | None = None
        self.views = 0
        self.stream = Stream(self.url, player.token)

    def reconnect(self) -> None:
        self.stream.close()
        since = self.items[-1]["version"] if self.items else 0
        self.stream = Stream(f"{self.url}?since={since}", self.player.token)

    def handle(self, message: dict[str, Any]) -> bool:
        """Take one message; True once the match is over."""
        if message["type"] == "move":
            self.items.append(message["item"])
            return False
        if message["type"] == "reveal":
            # Declared cards made public: the items of the log it holds, shown again.
            shown = {item["seq"]: item for item in message["items"]}
            self.items = [shown.get(item["seq"], item) for item in self.items]
            return False
        assert message["type"] == "view"
        self.views += 1
        view = message["view"]
        assert view["version"] == message["version"]
        if view["status"] != "active":
            return True
        legal = view["round"]["legal_moves"]
        if legal and self.answered != view["version"]:
            self.answered = view["version"]
            move = self.rng.choice(
                [m for m in legal if m["type"] != "double" or m["call"] == "pass"]
            )
            answer = self.player.client.post(
                match_url(self.match_id, "/moves"),
                {**move, "expected_version": view["version"]},
                format="json",
            )
            assert answer.status_code in (201, 409), answer.content
        return False

    def server_log(self) -> list[dict[str, Any]]:
        return log_of(self.player, self.match_id)


def assert_same_log(streamed: list[dict[str, Any]], log: list[dict[str, Any]]) -> None:
    """Every item once, in order, equal to the log's: a declaration the stream sent while its
    cards were still hidden (trick 1 open) was shown again by a ``reveal`` once they were
    public."""
    assert [i["version"] for i in streamed] == [i["version"] for i in log]
    assert streamed == log


def _new_match(player: Player) -> int:
    created = create_match(player, target=40, turn_seconds=600, bots=BOTS)
    assert created["status"] == "active"
    return int(created["id"])


def test_a_human_plays_three_bots_over_the_stream_only(
    stream_server: ThreadServer, worker: WorkerProcess, make_player: Any
) -> None:
    human = make_player()
    client = StreamPlayer(stream_server, human, _new_match(human))
    deadline = time.monotonic() + 90
    while not client.handle(client.stream.next(timeout=30)):
        assert time.monotonic() < deadline, f"the match did not finish\n{worker.logs()[-3000:]}"
    worker.kill9()  # done with it: a warm shutdown would only cost the suite seconds
    log = client.server_log()
    assert_same_log(client.items, log)  # every move, bots' included, once and in order
    assert any(item["actor"] == "bot" for item in log)
    assert {item["seat"] for item in log if item["actor"] == "bot"} == {1, 2, 3}


def test_cut_connections_and_a_killed_worker_lose_and_double_nothing(
    stream_server: ThreadServer, worker: WorkerProcess, make_player: Any
) -> None:
    human = make_player()
    client = StreamPlayer(stream_server, human, _new_match(human))
    cuts = random.Random(13)
    killed = False
    deadline = time.monotonic() + 120
    while True:
        assert time.monotonic() < deadline, f"the match did not finish\n{worker.logs()[-3000:]}"
        try:
            if client.handle(client.stream.next(timeout=30)):
                break
        except ConnectionClosed:
            client.reconnect()
            continue
        if cuts.random() < 0.08:
            # Cut at a random point: between two move items, or after a view.
            client.reconnect()
            client.answered = None
        if not killed and len(client.items) >= 30:
            killed = True
            worker.kill9()
            time.sleep(1.0)
            worker.start()
    assert killed
    worker.kill9()
    log = client.server_log()
    assert_same_log(client.items, log)
