"""A move log built from the match stream alone ends equal to ``GET /moves``: at the end of
every round of whole matches with declarations, in both rulesets, for every seat and a
spectator, with connections cut at random points and resumed with ``since``. Another seat's
declaration arrives with its cards hidden while trick 1 is open; the ``reveal`` message that
follows once they are public is what makes the two logs meet (issue 26)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from games.services import state as services  # where the deal is made
from live import asyncapi
from tests.live.test_asyncapi import _validator
from tests.support.api import legal_step, state_of, view_of
from tests.support.live import Stream, ThreadServer, log_of
from tests.support.players import Player, player_register

pytestmark = pytest.mark.django_db(transaction=True)


@dataclass
class Reader:
    """One persona's client: a stream, and the move log it builds from what it received."""

    player: Player
    url: str
    stream: Stream
    log: dict[int, dict[str, Any]] = field(default_factory=dict)  # by seq
    last_move: int = 0  # the version of the last move item received: the resume point
    shown: int = 0  # the version of the last view received
    reveals: int = 0  # items replaced by a reveal
    revealed: list[dict[str, Any]] = field(default_factory=list)  # the reveal messages
    cuts: int = 0

    def take(self, message: dict[str, Any]) -> None:
        if message["type"] == "move":
            item = message["item"]
            assert item["seq"] not in self.log, f"move {item['seq']} sent twice"
            assert item["version"] > self.last_move, "a move item out of order"
            self.log[item["seq"]] = item
            self.last_move = item["version"]
        elif message["type"] == "reveal":
            self.revealed.append(message)
            for item in message["items"]:
                # A client replaces by seq: a reveal only ever concerns items it has.
                assert item["seq"] in self.log, f"a reveal of move {item['seq']} never sent"
                self.log[item["seq"]] = item
                self.reveals += 1
        else:
            assert message["type"] == "view", message
            self.shown = message["version"]

    def read_to(self, version: int) -> None:
        while self.shown < version:
            self.take(self.stream.next())

    def cut(self) -> None:
        """The connection drops with whatever is in flight unread; the client reconnects with
        ``since`` = the version of the last move item it received."""
        self.stream.close()
        self.cuts += 1
        since = f"?since={self.last_move}" if self.last_move else ""
        if not since:
            self.log.clear()  # nothing to resume from: read it all again
        self.stream = Stream(self.url + since, self.player.token)
        self.shown = 0


@pytest.mark.parametrize("ruleset", ["gamerules", "saudi"])
def test_a_log_built_from_the_stream_equals_the_http_log_at_the_end_of_every_round(
    stream_server: ThreadServer, table: Any, ruleset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Seeded deals and moves, so the match (not the stream's timing) is the same every run: a
    # short match (a few rounds), declaring whenever a project is held.
    deals = random.Random(f"deals-{ruleset}-3")
    monkeypatch.setattr(services, "shuffled_deck", lambda: deals.sample(range(32), 32))
    monkeypatch.setattr(services.secrets, "randbelow", lambda n: 0)
    view, players = table(visibility="public", ruleset=ruleset, target=40)
    match_id = view["id"]
    spectator = player_register()
    personas = [*players, spectator]
    url = f"{stream_server.url}/ws/v1/matches/{match_id}"
    readers = [Reader(p, url, Stream(url, p.token)) for p in personas]
    # The seeds give declarations made while other seats' streams were open (seed 3 of each).
    rng = random.Random(f"stream-log-{ruleset}")
    round_no, rounds = state_of(match_id).round_no, 0
    for _ in range(2000):
        answer = legal_step(players, match_id, rng, declare_rate=1.0, declines_doubling=True)
        state = state_of(match_id)
        ended = answer["status"] != "active" or state.round_no != round_no
        for reader in readers:
            # Most clients keep up; some fall behind a few versions, read a shared render from
            # further back, or drop the connection with messages unread.
            if rng.random() < 0.04:
                reader.cut()
            if ended or rng.random() < 0.7:
                reader.read_to(view_of(reader.player, match_id)["version"])
        if ended:
            rounds += 1
            for reader in readers:
                built = [reader.log[seq] for seq in sorted(reader.log)]
                assert built == log_of(reader.player, match_id), (readers.index(reader), round_no)
            round_no = state.round_no
        if answer["status"] != "active":
            break
    else:
        raise AssertionError("the match did not end")
    assert answer["status"] == "finished" and rounds >= 2
    # Declarations were made and shown hidden to the other seats, then revealed by the stream.
    assert sum(r.reveals for r in readers[:4]) > 0
    schema = _validator(asyncapi.document(), "RevealMessage")
    for reader in readers:
        for message in reader.revealed:
            schema.validate(message)
    # A spectator sees a declaration only once trick 1 is complete: never hidden, no reveal.
    assert readers[4].reveals == 0
    assert sum(r.cuts for r in readers) > 0
