"""Redis restart drill: the broker goes away mid-match and comes back empty.

Collected only when CELERY_BROKER_URL is Redis (see conftest.py): on the embedded defaults the
broker is a folder in this checkout and there is no server to restart; the worker drill covers
the lost-messages half of this there.

An all-bot match is played by the real worker. Mid-match Redis is shut down without saving
(every queued and unacknowledged task is lost); while it is down a human on another table moves
over HTTP (the move commits; only its follow-up scheduling fails) and readers keep reading.
Redis comes back empty: the worker reconnects (or, if kombu crashed it, is restarted as its
supervisor would), the deadline sweep finds the turns whose tasks were lost, and both matches
finish with whole logs.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from games.models import Match, MatchStatus
from tests.drills.test_worker_drill import all_bot_match, finished, moves_of
from tests.support.api import PROBLEM
from tests.support.drills import redis_start, redis_stop, services_restored
from tests.support.logs import assert_log_is_whole
from tests.support.players import Player, create_match
from tests.support.workers import WorkerProcess, wait_for

pytestmark = [pytest.mark.worker, pytest.mark.slow, pytest.mark.services]


def _ok_or_problem_503(response: Any) -> None:
    status = response.status_code
    assert status < 500 or status == 503, (status, response.content)
    if status == 503:
        assert response["Content-Type"].startswith(PROBLEM)
        assert response.json()["code"] == "service_unavailable"


def test_redis_restart_mid_match(worker: WorkerProcess, make_player: Callable[..., Player]) -> None:
    owner = make_player()
    bots = all_bot_match(owner, target=60)
    human = make_player()
    # The human's partner and opponents are bots; the human moves during the outage.
    table = create_match(
        human, target=60, bots={"1": "easy", "2": "easy", "3": "easy"}, turn_seconds=600
    )["id"]
    url = f"/api/v1/matches/{table}"

    def human_to_move() -> dict[str, Any] | None:
        view = human.client.get(url).json()
        return view if view["round"]["legal_moves"] else None

    wait_for(lambda: moves_of(bots) >= 15, timeout=60, worker=worker, what="the bots to start")
    view = wait_for(human_to_move, timeout=60, worker=worker, what="the human's turn")

    with services_restored():
        redis_stop()
        down_at = moves_of(bots)
        started = time.monotonic()
        # The API keeps answering without the broker (and without a Redis cache).
        _ok_or_problem_503(owner.client.get(f"/api/v1/matches/{bots}"))
        played = human.client.post(
            f"{url}/moves",
            {**view["round"]["legal_moves"][0], "expected_version": view["version"]},
            format="json",
        )
        # The database is up, so the move commits; only scheduling its follow-up fails.
        assert played.status_code == 201, played.content
        _ok_or_problem_503(human.client.get(url))
        time.sleep(max(0.0, 3.0 - (time.monotonic() - started)))
        redis_start()
    # Whatever was queued is gone; the sweep (beat in the worker) finds the due turns.
    time.sleep(1.0)
    if worker.proc is not None and worker.proc.poll() is not None:
        # The worker usually reconnects by itself. When the broker vanishes while a task is
        # delivered but unacknowledged, kombu's Redis transport can crash while restoring it
        # on close (AttributeError: 'NoneType' object has no attribute 'hostname', in
        # restore_unacked) and the worker exits. Production runs it under a supervisor
        # (docker/compose.yaml: restart: unless-stopped); do what the supervisor does.
        assert "restore_unacked" in worker.logs(), worker.logs()[-4000:]
        worker.start()

    def human_again_or_over() -> bool:
        match = Match.objects.get(pk=table)
        return match.status != MatchStatus.ACTIVE or match.to_act == 0

    wait_for(lambda: moves_of(bots) > down_at + 10, timeout=60, worker=worker, what="bots again")
    # The bots answer the move made during the outage once the sweep finds their turn.
    wait_for(human_again_or_over, timeout=60, worker=worker, what="the bots to answer")
    wait_for(lambda: finished([bots]), timeout=300, worker=worker, what="the match to finish")
    assert_log_is_whole(bots)
    assert_log_is_whole(table)
    # The human's table carries on too: the human can still move (or it is a bot's turn).
    assert Match.objects.get(pk=table).status == MatchStatus.ACTIVE
