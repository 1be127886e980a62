"""Many simultaneous moves on one match (issue: game service, concurrency).

Runs against whatever database the suite uses: on PostgreSQL the match row lock
(select_for_update) serialises writers; on SQLite the IMMEDIATE transactions do. Either way:
exactly one move applied per turn, no gaps in the log, snapshot equal to the replay of it.
"""

from __future__ import annotations

import random
import threading
from collections import Counter
from functools import partial
from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIClient

from games.models import Match
from tests.support.logs import assert_log_is_whole

pytestmark = pytest.mark.django_db(transaction=True)

CONTENDERS = 6


def _device(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def _race(calls: list[Any]) -> list[Any]:
    """Start every call at the same moment, each in its own thread and DB connection."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        try:
            barrier.wait()
            results[i] = calls[i]()
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def _post(match_id: int, client: APIClient, body: dict, headers: dict | None = None) -> int:
    url = f"/api/v1/matches/{match_id}/moves"
    return client.post(url, body, format="json", headers=headers or {}).status_code


def _contenders(
    match_id: int, move: dict, version: int, key: str, token: str, wrong: APIClient
) -> list[Any]:
    post = partial(_post, match_id)
    current = {**move, "expected_version": version}
    return [
        # the same turn from two devices of the same player, same idempotency key
        partial(post, _device(token), current, {"Idempotency-Key": key}),
        partial(post, _device(token), current, {"Idempotency-Key": key}),
        # the same turn, no key, current version: only one may win
        partial(post, _device(token), current),
        # a stale version
        partial(post, _device(token), {**move, "expected_version": version - 1}),
        # no version at all: lands if first, else refused by the rules
        partial(post, _device(token), dict(move)),
        # the wrong seat, at the current version. (Without a version the next seat could land
        # the same move legally once the winner's has made it their turn: a pass is a pass.)
        partial(post, wrong, current),
    ]


@pytest.mark.slow
def test_racing_moves_apply_exactly_once_per_turn(table: Any) -> None:
    view, players = table(target=40)
    match_id = view["id"]
    rng = random.Random(11)
    outcomes: Counter[int] = Counter()
    turns = 0
    while turns < 60:
        seat_view = players[0].client.get(f"/api/v1/matches/{match_id}").json()
        if seat_view["status"] != "active":
            break
        seat = seat_view["round"]["to_act"]
        mine = players[seat].client.get(f"/api/v1/matches/{match_id}").json()
        move = rng.choice(mine["round"]["legal_moves"])
        version = mine["version"]
        token = players[seat].token
        wrong_seat = players[(seat + 1) % 4]

        calls = _contenders(match_id, move, version, f"turn-{turns}", token, wrong_seat.client)
        before = Match.objects.get(pk=match_id).version
        statuses = _race(calls)
        outcomes.update(statuses)
        assert 500 not in statuses and 503 not in statuses, statuses
        after = Match.objects.get(pk=match_id)
        # Each contender's move is the same card/call, so after the first lands the others are
        # stale, replays, or refused by the rules: exactly one new move (a round or match end
        # adds no extra version).
        assert after.version == before + 1, statuses
        assert statuses[3] == 409
        assert statuses[5] in (422, 409)
        turns += 1

    assert_log_is_whole(match_id)
    assert outcomes[201] >= turns  # at least the winner each turn (+ idempotent replays)
