"""Strict parameters on the streams (issue 23): a query parameter a stream does not take, or a
value not of its form, closes with 4400 before credentials are checked; and whatever raises
inside a consumer closes the socket with 1011 and gives the user's connection slot back, once.

The server runs in a thread of the test process, so a test reads the per-user slot counter
(``live.consumers._open``) directly and patches what the consumers call."""

from __future__ import annotations

import random
import time
from typing import Any
from urllib.parse import quote

import pytest

from live import asyncapi, auth, consumers
from tests.support.api import legal_step, match_url
from tests.support.live import Stream, ThreadServer
from tests.support.players import Player, create_match, player_register

pytestmark = pytest.mark.django_db(transaction=True)

# The documented codes (live/asyncapi.py).
BAD_QUERY = 4400
INTERNAL = 1011

# `since` is ASCII digits, at most 10, at most the largest match version (2**31 - 1).
BAD_SINCE = [
    "²",  # superscript two: str.isdigit() says yes, int() raises
    "①",  # circled one: the same
    "\u0661",  # Arabic-Indic one: int() would take it
    "\uff11",  # fullwidth one: int() would take it too
    "-1",
    "+1",
    "1e3",
    "0x10",
    "1_000",
    " 1",
    "1 ",
    "1.0",
    "",  # present but empty: refused, not read as absent
    "2147483648",  # one past the largest version
    "99999999999999999999",
    "0" * 11,
]


def _slots(player: Player, expected: int, timeout: float = 5.0) -> int:
    """The player's open-connection count in the server, once it settles at ``expected`` (or
    whatever it is when ``timeout`` runs out): a close reaches the consumer a moment later."""
    deadline = time.monotonic() + timeout
    while True:
        count = consumers._open.get(player.id, 0)
        if count == expected or time.monotonic() > deadline:
            return count
        time.sleep(0.02)


def _match_url(server: ThreadServer, match_id: int) -> str:
    return f"{server.url}/ws/v1/matches/{match_id}"


@pytest.mark.parametrize("value", BAD_SINCE)
def test_a_since_that_is_not_ascii_digits_in_range_is_4400_and_frees_its_slot(
    stream_server: ThreadServer, value: str
) -> None:
    player = player_register()
    match = create_match(player)
    url = f"{_match_url(stream_server, match['id'])}?since={quote(value, safe='')}"
    assert Stream(url, player.token).close_code() == BAD_QUERY
    assert _slots(player, 0) == 0


def test_after_every_bad_since_all_twenty_slots_are_still_there(
    stream_server: ThreadServer, settings: Any
) -> None:
    limit = int(settings.LIVE["MAX_CONNECTIONS_PER_USER"])
    assert limit == 20
    player = player_register()
    match = create_match(player)
    url = _match_url(stream_server, match["id"])
    for value in BAD_SINCE:
        assert Stream(f"{url}?since={quote(value, safe='')}", player.token).close_code() == 4400
    kept = [Stream(url, player.token) for _ in range(limit)]
    for stream in kept:
        assert stream.next()["type"] == "view"
    assert _slots(player, limit) == limit
    assert Stream(url, player.token).close_code(timeout=3) == auth.TOO_MANY


@pytest.mark.parametrize("since", ["0", "1", "007", "2147483647"])
def test_a_well_formed_since_streams(stream_server: ThreadServer, since: str) -> None:
    player = player_register()
    match = create_match(player)
    stream = Stream(f"{_match_url(stream_server, match['id'])}?since={since}", player.token)
    assert stream.next()["type"] == "view"


@pytest.mark.parametrize(
    "query",
    [
        "since=1&since=2",  # repeated
        "since=1&since=1",
        "Since=1",  # names are case-sensitive: unknown
        "foo=1",
        "since=1&foo=",
        "since",  # a name without a value is an empty value
        "ticket=",
        "ticket=a%00b",
        "ticket=" + "a" * 65,
        "ticket=%E2%91%A0",
        "since=%FF",  # not UTF-8 once percent-decoded
        pytest.param("since=1&" + "x" * 2000, id="over-the-length-bound"),
    ],
)
def test_unknown_repeated_or_malformed_parameters_are_4400(
    stream_server: ThreadServer, query: str
) -> None:
    player = player_register()
    match = create_match(player)
    stream = Stream(f"{_match_url(stream_server, match['id'])}?{query}", player.token)
    assert stream.close_code() == BAD_QUERY
    assert _slots(player, 0) == 0


def test_the_player_stream_takes_a_ticket_only(stream_server: ThreadServer) -> None:
    player = player_register()
    url = f"{stream_server.url}/ws/v1/me"
    for query in ("since=0", "ticket=a&ticket=b", "foo=bar", "ticket="):
        assert Stream(f"{url}?{query}", player.token).close_code() == BAD_QUERY
    assert _slots(player, 0) == 0
    # A well-formed ticket that is no ticket is still 4401 (checked after the form).
    assert Stream(f"{url}?ticket=nope").close_code() == auth.NOT_AUTHENTICATED


def test_the_query_is_checked_before_credentials_and_spends_no_ticket(
    stream_server: ThreadServer,
) -> None:
    player = player_register()
    match = create_match(player)
    url = _match_url(stream_server, match["id"])
    assert Stream(f"{url}?since=%C2%B2").close_code() == BAD_QUERY  # no credentials at all
    answer = player.client.post("/api/v1/auth/ws-ticket")
    assert answer.status_code == 201, answer.content
    ticket = answer.json()["ticket"]
    assert Stream(f"{url}?ticket={ticket}&since=-1").close_code() == BAD_QUERY
    # The malformed attempt did not spend it.
    assert Stream(f"{url}?ticket={ticket}&since=0").next()["type"] == "view"


# --- A consumer that raises -----------------------------------------------------------------


class Boom(RuntimeError):
    pass


def _boom(*args: Any, **kwargs: Any) -> Any:
    raise Boom("injected")


async def _aboom(*args: Any, **kwargs: Any) -> Any:
    raise Boom("injected")


@pytest.mark.parametrize("path", ["match", "me"])
def test_a_consumer_raising_while_connecting_closes_1011_and_frees_the_slot(
    stream_server: ThreadServer, monkeypatch: pytest.MonkeyPatch, path: str
) -> None:
    player = player_register()
    match = create_match(player)
    url = (
        _match_url(stream_server, match["id"])
        if path == "match"
        else f"{stream_server.url}/ws/v1/me"
    )
    healthy = Stream(_match_url(stream_server, match["id"]), player.token)
    assert healthy.next()["type"] == "view"
    assert _slots(player, 1) == 1
    # Called once the slot is taken, by both streams.
    monkeypatch.setattr(consumers.relay, "start", _aboom)
    assert Stream(url, player.token).close_code() == INTERNAL
    # Given back exactly once: the healthy stream keeps its slot.
    assert _slots(player, 1) == 1
    monkeypatch.undo()
    healthy.close()
    assert _slots(player, 0) == 0


def test_a_match_stream_raising_in_its_first_read_closes_1011_and_frees_the_slot(
    stream_server: ThreadServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    player = player_register()
    match = create_match(player)
    monkeypatch.setattr(consumers.chat_selectors, "chat_last_id", _boom)
    assert Stream(_match_url(stream_server, match["id"]), player.token).close_code() == INTERNAL
    assert _slots(player, 0) == 0


def test_a_group_message_handler_raising_closes_1011_and_frees_the_slot(
    stream_server: ThreadServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    player = player_register()
    match = create_match(player)
    stream = Stream(_match_url(stream_server, match["id"]), player.token)
    assert stream.next()["type"] == "view"
    monkeypatch.setattr(consumers.MatchStream, "live_note", _aboom)
    answer = player.client.post(
        match_url(match["id"], "/chat"), {"phrase": "hurry_please"}, format="json"
    )
    assert answer.status_code in (200, 201), answer.content
    assert stream.close_code() == INTERNAL
    assert _slots(player, 0) == 0


def test_a_client_frame_the_consumer_fails_on_closes_1011_and_frees_the_slot(
    stream_server: ThreadServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    player = player_register()
    stream = Stream(f"{stream_server.url}/ws/v1/me", player.token)
    assert _slots(player, 1) == 1
    # Without the fault, frames of any kind are ignored.
    stream.ws.send("not json")
    stream.ws.send(b"\x00\xff")
    time.sleep(0.2)
    assert _slots(player, 1) == 1
    monkeypatch.setattr(consumers.PlayerStream, "receive", _aboom)
    stream.ws.send("{}")
    assert stream.close_code() == INTERNAL
    assert _slots(player, 0) == 0


def test_a_send_that_keeps_failing_closes_1011_and_frees_the_slot(
    stream_server: ThreadServer,
    monkeypatch: pytest.MonkeyPatch,
    table: Any,
) -> None:
    """The pass after a commit (read, render, send) is retried a couple of times (a database
    hiccup), then the stream gives up with 1011 rather than holding the slot with nothing
    sent; the client resumes with ``since``."""
    view, players = table()
    stream = Stream(_match_url(stream_server, view["id"]), players[0].token)
    assert stream.until_view(view["version"])[-1]["type"] == "view"
    monkeypatch.setattr(consumers.MatchStream, "_send_texts", _aboom)
    legal_step(players, view["id"], random.Random(1))
    assert stream.close_code() == INTERNAL
    assert _slots(players[0], 0) == 0
    monkeypatch.undo()
    resumed = Stream(
        f"{_match_url(stream_server, view['id'])}?since={view['version']}", players[0].token
    )
    got = resumed.until_view(view["version"] + 1)
    assert [m["type"] for m in got] == ["move", "view"]


def test_one_connection_failing_the_re_check_does_not_end_it_for_the_others(
    stream_server: ThreadServer, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    """The process's watcher re-checks every open connection; one that raises there (here a
    match stream's ``behind``) must not stop the others' revocations from being enforced."""
    settings.LIVE = {**settings.LIVE, "RECHECK_SECONDS": 0.1}
    owner, other = player_register(), player_register()
    match = create_match(owner)
    failing = Stream(_match_url(stream_server, match["id"]), owner.token)
    assert failing.next()["type"] == "view"
    inbox = Stream(f"{stream_server.url}/ws/v1/me", other.token)
    assert _slots(other, 1) == 1
    calls: list[int] = []

    def boom(self: Any, version: int) -> None:
        calls.append(version)
        raise Boom("injected")

    monkeypatch.setattr(consumers.MatchStream, "behind", boom)
    deadline = time.monotonic() + 5
    while not calls:
        assert time.monotonic() < deadline, "the watcher never re-checked the match stream"
        time.sleep(0.02)
    # The watcher has met the failure; a logout after it is still enforced.
    assert other.client.post("/api/v1/auth/logout").status_code in (200, 204)
    assert inbox.close_code() == auth.NOT_AUTHENTICATED
    assert _slots(other, 0) == 0


# --- The contract ---------------------------------------------------------------------------


def test_the_asyncapi_document_says_so() -> None:
    document = asyncapi.document()
    text = document["info"]["description"]
    for code in ("4400", "1011"):
        assert f"`{code}`" in text
    for channel in ("match", "me"):
        query = document["channels"][channel]["bindings"]["ws"]["query"]
        assert query["additionalProperties"] is False
        assert query["properties"]["ticket"]["pattern"] == "^[A-Za-z0-9_-]{1,64}$"
    since = document["channels"]["match"]["bindings"]["ws"]["query"]["properties"]["since"]
    assert (since["minimum"], since["maximum"]) == (0, 2**31 - 1)
    assert "since" not in document["channels"]["me"]["bindings"]["ws"]["query"]["properties"]
