"""Scale-out on PostgreSQL + Redis: two uvicorn processes and a worker. Clients on either
process receive every event, whichever web process or the worker committed it."""

from __future__ import annotations

import asyncio
import json
import random
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from channels.layers import channel_layers

from players import presence
from tests.live.test_bots import BOTS, assert_same_log
from tests.support.live import ProcessServer, Stream, log_from_stream, log_of
from tests.support.players import create_match
from tests.support.workers import WorkerProcess

pytestmark = [
    pytest.mark.worker,
    pytest.mark.server,
    pytest.mark.services,  # the Redis relay
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def two_webs(transactional_db: None, tmp_path: Path) -> Iterator[list[ProcessServer]]:
    servers = [ProcessServer(tmp_path, "web-a"), ProcessServer(tmp_path, "web-b")]
    try:
        yield servers
    finally:
        while Stream.opened:
            Stream.opened.pop().close()
        for server in servers:
            server.stop()


def _post(server: ProcessServer, path: str, token: str, body: dict[str, Any]) -> int:
    request = urllib.request.Request(
        f"http://127.0.0.1:{server.port}{path}",
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as refused:
        return int(refused.code)


def test_clients_on_either_process_hear_every_commit(
    two_webs: list[ProcessServer], worker: WorkerProcess, make_player: Any
) -> None:
    web_a, web_b = two_webs
    human, watcher = make_player(), make_player()
    created = create_match(human, target=40, turn_seconds=600, bots=BOTS, visibility="public")
    match_id = created["id"]
    path = f"/ws/v1/matches/{match_id}"
    mine = Stream(web_a.url + path, human.token)
    theirs = Stream(web_b.url + path, watcher.token)
    inbox = Stream(web_b.url + "/ws/v1/me", human.token)
    rng = random.Random(2)
    answered: set[int] = set()
    posted_to = {"a": 0, "b": 0}
    deadline = time.monotonic() + 90
    while True:
        assert time.monotonic() < deadline, worker.logs()[-3000:]
        message = mine.next(timeout=30)
        if message["type"] != "view":
            continue
        view = message["view"]
        if view["status"] != "active":
            break
        legal = view["round"]["legal_moves"]
        if legal and view["version"] not in answered:
            answered.add(view["version"])
            move = rng.choice([m for m in legal if m["type"] != "double" or m["call"] == "pass"])
            # The human's moves commit in either web process, in turn.
            side = "a" if len(answered) % 2 else "b"
            posted_to[side] += 1
            status = _post(
                web_a if side == "a" else web_b,
                f"/api/v1/matches/{match_id}/moves",
                human.token,
                {**move, "expected_version": view["version"]},
            )
            assert status in (201, 409)
    final = message["version"]
    assert posted_to["a"] and posted_to["b"]
    theirs.until_view(final, timeout=30)
    for stream, viewer in ((mine, human), (theirs, watcher)):
        assert_same_log(log_from_stream(stream.received), log_of(viewer, match_id))
    assert {i["actor"] for i in log_of(human, match_id)} >= {"bot", "human"}
    # The inbox on the other process heard of the human's turns and of the end.
    events: list[dict[str, Any]] = []
    while not events or events[-1]["event"] != "match_finished":
        events.append(inbox.next(timeout=15))
    # Only now: the commit that finished the match may be the worker's, and its inbox note
    # goes out after the match's note (a kill right after the last view could cut it off).
    worker.kill9()  # done with it: a warm shutdown would only cost the suite seconds
    assert "your_turn" in {e["event"] for e in events}


def test_an_idle_connection_outlasts_the_layers_blocking_read() -> None:
    """channels-redis waits for a consumer's next message with a blocking BZPOPMIN; if the
    Redis client's own read timeout is not longer, the read gives up first under load and the
    consumer dies (its connection dropped without a close frame, as CI once saw). Here the block
    is made longer than redis-py's 5 s default: the wait must end by our own timeout, quietly."""
    layer = channel_layers["default"]
    layer.brpop_timeout = 6  # type: ignore[attr-defined]

    async def idle() -> None:
        channel = await layer.new_channel()
        try:
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(layer.receive(channel), timeout=8)
        finally:
            await layer.close_pools()  # type: ignore[attr-defined]

    asyncio.run(idle())


def test_a_friends_presence_across_two_processes(
    two_webs: list[ProcessServer], make_player: Any
) -> None:
    """Presence is the union of both processes' streams: the follower, on one process, hears
    the friend come online on the other; the friend's second stream (elsewhere) and the close
    of the first change nothing; the close of the last makes them offline (issue 27, point 5)."""
    web_a, web_b = two_webs
    follower, friend = make_player(), make_player()
    answer = follower.client.post(
        "/api/v1/me/friends", {"username": friend.user.username}, format="json"
    )
    assert answer.status_code == 201, answer.content
    heard = Stream(web_a.url + "/ws/v1/me", follower.token)
    deadline = time.monotonic() + 10
    while presence.presence_of([follower.id])[follower.id] == presence.NOWHERE:
        assert time.monotonic() < deadline, "the follower's stream never came online"
        time.sleep(0.05)
    first = Stream(web_b.url + "/ws/v1/me", friend.token)
    online = heard.next()
    assert (online["type"], online["username"], online["presence"]) == (
        "presence",
        friend.user.username,
        "online",
    )
    second = Stream(web_a.url + "/ws/v1/me", friend.token)
    deadline = time.monotonic() + 10
    while (
        len(presence._live(presence.caches["push"].get(f"presence:{friend.id}"), time.time())) < 2
    ):
        assert time.monotonic() < deadline, "the second process never marked the friend"
        time.sleep(0.05)
    first.close()
    with pytest.raises(TimeoutError):
        heard.next(timeout=1.0)  # still online on the other process
    assert presence.presence_of([friend.id])[friend.id] == presence.Presence("online")
    second.close()
    gone = heard.next()
    assert (gone["presence"], gone["match_id"]) == ("offline", None)
    assert gone["last_seen"] is not None
