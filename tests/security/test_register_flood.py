"""A registration flood does not stall the game (the attack was on SQLite, the embedded default;
the test runs on PostgreSQL too, where it must hold all the more).

The attack: registrations hashed their password (PBKDF2, about half a second) inside their
write transaction, which on SQLite holds the database's only write lock. A flood of them made
moves take 0.5-15 s and answer 503 "database is locked".

Here threads register accounts with the real PBKDF2 hasher, each on its own database
connection, as fast as they can, while a player keeps making moves through the API. Every move
must answer 201, and none may take seconds: the bound is generous (the machine is shared and
the hashing threads compete for its cores) and only catches a move queued behind hashes.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIClient

from tests.support.api import API, match_url
from tests.support.auth import PASSWORD, set_rates
from tests.support.players import Player

FLOODERS = 3
MOVES = 12  # at least, and until the flood has committed REGISTERED accounts meanwhile
REGISTERED = 2 * FLOODERS
SLOWEST_MOVE = 5.0  # seconds


class Flood:
    """Threads registering accounts until stopped; each keeps the status codes it got."""

    def __init__(self, threads: int) -> None:
        self.stop = threading.Event()
        self.statuses: list[int] = []
        self.errors: list[BaseException] = []
        self.threads = [
            threading.Thread(target=self._run, args=(i,), daemon=True) for i in range(threads)
        ]

    def _run(self, worker: int) -> None:
        client = APIClient(REMOTE_ADDR=f"198.51.100.{worker + 1}")
        try:
            n = 0
            while not self.stop.is_set():
                n += 1
                body = {"username": f"f{worker}x{n}", "password": PASSWORD, "display_name": "F"}
                response = client.post(f"{API}/auth/register", body, format="json")
                self.statuses.append(response.status_code)
        except BaseException as exc:  # reported by the test
            self.errors.append(exc)
        finally:
            connection.close()

    def __enter__(self) -> Flood:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=60)


def timed_move(players: list[Player], match_id: int) -> tuple[int, float]:
    """The seat to act makes its first legal move; the answer's status and how long it took."""
    to_act = players[0].client.get(match_url(match_id)).json()["round"]["to_act"]
    view = players[to_act].client.get(match_url(match_id)).json()
    move = view["round"]["legal_moves"][0]
    started = time.monotonic()
    response = players[to_act].client.post(match_url(match_id, "/moves"), move, format="json")
    return response.status_code, time.monotonic() - started


@pytest.mark.slow
def test_moves_keep_answering_during_a_register_flood(
    transactional_db: None,
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
    table: Callable[..., tuple[dict[str, Any], list[Player]]],
) -> None:
    view, players = table()  # made with the fast test hasher
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]
    # The flood comes from a few addresses and must not be throttled: the point is the lock.
    set_rates(monkeypatch, auth="1000000/min", auth_address="1000000/hour")

    moves: list[tuple[int, float]] = []
    with Flood(FLOODERS) as flood:
        while not flood.statuses and not flood.errors:  # hashing under way, one account in
            time.sleep(0.05)
        registered_before = len(flood.statuses)
        while len(moves) < MOVES or len(flood.statuses) - registered_before < REGISTERED:
            moves.append(timed_move(players, view["id"]))
            status, seconds = moves[-1]
            if status != 201 or seconds >= SLOWEST_MOVE or flood.errors:
                break  # failed already; no need to sit through the rest of the flood
            assert len(moves) < 1000, "the flood never got going"

    assert not flood.errors, flood.errors
    assert set(flood.statuses) == {201}, flood.statuses
    assert [status for status, _ in moves] == [201] * len(moves), moves
    slowest = max(seconds for _, seconds in moves)
    assert slowest < SLOWEST_MOVE, [round(seconds, 2) for _, seconds in moves]
