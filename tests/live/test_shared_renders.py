"""Render once, send many (live.renders): the connections of one perspective get the same
bytes from one render per version; a client that does not read holds no growing queue on the
server, and once it reads it has every item and the newest view; a long catch-up comes a page
at a time."""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from typing import Any

import pytest

from live import consumers, renders
from tests.support.api import legal_step, match_url, view_of
from tests.support.live import Stream, ThreadServer, log_from_stream, log_of
from tests.support.players import player_register

pytestmark = pytest.mark.django_db(transaction=True)


def _raw_until_view(stream: Stream, version: int, timeout: float = 15.0) -> list[str]:
    """The texts received up to and including the first view at ``version`` or later."""
    got: list[str] = []
    deadline = time.monotonic() + timeout
    while True:
        raw = stream.ws.recv(timeout=max(0.01, deadline - time.monotonic()))
        assert isinstance(raw, str)
        got.append(raw)
        message = json.loads(raw)
        if message["type"] == "view" and message["version"] >= version:
            return got


def _count_renders(monkeypatch: pytest.MonkeyPatch) -> Counter[tuple[int, int | None]]:
    """Renders by (the read's version, the seat rendered for)."""
    counted: Counter[tuple[int, int | None]] = Counter()
    render = renders._render

    def counting(read: renders.Read, seat: Any, language: str, base: int) -> renders.Frame:
        counted[(read.version, seat.index if seat is not None else None)] += 1
        return render(read, seat, language, base)

    monkeypatch.setattr(renders, "_render", counting)
    return counted


def test_two_connections_of_one_perspective_get_the_same_bytes_from_one_render(
    stream_server: ThreadServer, table: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    view, players = table(visibility="public")
    match_id = view["id"]
    outsiders = [player_register(), player_register()]
    url = f"{stream_server.url}/ws/v1/matches/{match_id}"
    seated = [Stream(url, players[0].token), Stream(url, players[0].token)]
    watching = [Stream(url, outsider.token) for outsider in outsiders]
    for stream in seated:
        stream.until_view(view["version"])
    shown = view_of(outsiders[0], match_id)["version"]
    for stream in watching:
        stream.until_view(shown)
    counted = _count_renders(monkeypatch)
    rng = random.Random(7)
    spectator_views = 0
    for _ in range(20):
        version = legal_step(players, match_id, rng, declines_doubling=True)["version"]
        first, second = (_raw_until_view(s, version) for s in seated)
        assert first == second and json.loads(first[-1])["view"] == view_of(players[0], match_id)
        http = view_of(outsiders[0], match_id)
        if http["version"] != shown:
            first, second = (_raw_until_view(s, http["version"]) for s in watching)
            assert first == second and json.loads(first[-1])["view"] == http
            shown = http["version"]
            spectator_views += 1
    assert spectator_views >= 2, "the spectators' cut never moved: play more moves"
    # One render per version and perspective served both connections of it.
    assert counted and set(counted.values()) == {1}, counted
    assert sum(1 for _, seat in counted if seat == 0) >= 20
    assert {seat for _, seat in counted} == {0, None}


def _server_side(server: ThreadServer, stream: Stream) -> tuple[Any, consumers.MatchStream]:
    """The server's protocol (uvicorn's connection) and consumer of ``stream``."""
    port = stream.ws.socket.getsockname()[1]
    connections: list[Any] = list(server.server.server_state.connections)
    protocol = next(p for p in connections if (getattr(p, "client", None) or ("", 0))[1] == port)
    # The consumer joins the list after its first messages are out (and, on PostgreSQL, after
    # a query more), so the client may read its view a moment before: wait for it.
    deadline = time.monotonic() + 10
    while True:
        found = [
            s
            for s in list(consumers._streams)
            if isinstance(s, consumers.MatchStream)
            and (s.scope.get("client") or ("", 0))[1] == port
        ]
        if found or time.monotonic() > deadline:
            break
        time.sleep(0.02)
    assert len(found) == 1
    return protocol, found[0]


def test_a_client_that_does_not_read_holds_no_growing_queue_and_catches_up_complete(
    stream_server: ThreadServer, table: Any
) -> None:
    view, players = table()
    match_id = view["id"]
    url = f"{stream_server.url}/ws/v1/matches/{match_id}"
    slow = Stream(url, players[1].token)
    # Another connection of the same perspective reads along: the shared renders follow it, so
    # the slow one falls behind what they cover and catches up with its own read.
    along = Stream(url, players[1].token)
    for stream in (slow, along):
        stream.until_view(view["version"])
    protocol, consumer = _server_side(stream_server, slow)
    loop = protocol.loop
    # The server's write buffer over its high-water mark, as when the client stops reading: the
    # stream's next send waits.
    loop.call_soon_threadsafe(protocol.pause_writing)
    rng = random.Random(9)
    most = 0
    for _ in range(40):
        version = legal_step(players, match_id, rng, declines_doubling=True)["version"]
        along.until_view(version)
        most = max(most, consumer.unsent)
        # Nothing reached the transport while it was paused.
        assert protocol.transport.get_write_buffer_size() == 0
    # At most one pass in flight: one version's items and its view, whatever was committed.
    assert 1 <= most <= 2, most
    assert consumer.unsent <= 2
    loop.call_soon_threadsafe(protocol.resume_writing)
    got = slow.until_view(version)
    items = [m["item"] for m in got if m["type"] == "move"]
    assert items == [i for i in log_of(players[1], match_id) if i["version"] > view["version"]]
    assert got[-1]["view"] == view_of(players[1], match_id)
    # One view for the version in flight, one for all the others: coalesced, not queued.
    assert [m["version"] for m in got if m["type"] == "view"][-1] == version
    assert sum(1 for m in got if m["type"] == "view") <= 3


def test_a_catch_up_longer_than_a_page_comes_a_page_at_a_time(
    stream_server: ThreadServer, table: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(consumers, "PAGE", 5)
    view, players = table()
    match_id = view["id"]
    rng = random.Random(4)
    for _ in range(13):
        version = legal_step(players, match_id, rng, declines_doubling=True)["version"]
    got = Stream(f"{stream_server.url}/ws/v1/matches/{match_id}?since=0", players[2].token)
    messages = got.until_view(version)
    # Moves (and, when the random deal had another seat declare and trick 1 complete within the
    # catch-up, the reveal of its cards), then one view.
    assert {m["type"] for m in messages[:-1]} <= {"move", "reveal"}
    assert messages[-1]["type"] == "view"
    assert log_from_stream(messages) == log_of(players[2], match_id)
    assert sum(1 for m in messages if m["type"] == "move") > 5
    assert messages[-1]["view"] == players[2].client.get(match_url(match_id)).json()


def test_a_process_joins_a_matchs_group_once_for_all_its_streams(
    stream_server: ThreadServer, table: Any
) -> None:
    from channels.layers import InMemoryChannelLayer, get_channel_layer

    layer = get_channel_layer()
    if not isinstance(layer, InMemoryChannelLayer):
        pytest.skip("counts the in-memory layer's members (the embedded default)")
    view, players = table(visibility="public")
    match_id = view["id"]
    url = f"{stream_server.url}/ws/v1/matches/{match_id}"
    streams = [Stream(url, p.token) for p in (*players, player_register(), player_register())]
    for stream in streams:
        stream.until_view(0)
    group = f"match.{match_id}"
    assert len(layer.groups.get(group, {})) == 1
    # Every stream still hears of every version through that one membership.
    version = legal_step(players, match_id, random.Random(2))["version"]
    for stream in streams[:4]:
        assert stream.until_view(version)[-1]["version"] == version
    for stream in streams:
        stream.close()
    deadline = time.monotonic() + 10
    while layer.groups.get(group):
        assert time.monotonic() < deadline, "the process stayed in the group"
        time.sleep(0.05)
