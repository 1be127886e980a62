"""Worker drill, on every configuration (the SQLite-file broker or Redis; SQLite or PostgreSQL).

Three matches are played by the real worker at once: two all-bot tables and one where the only
human never moves (deadlines expire, the seat goes away, a bot takes over). Mid-game the worker
is killed with SIGKILL and every queued task is purged, so the messages for the turns in flight
are gone as a broker restart without persistence would lose them. The restarted worker's beat
sweep must find every due turn by its deadline: all three matches finish, logs whole.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.db import transaction

from games import services
from games.models import Actor, Match, MatchStatus, Move
from tests.support.logs import assert_log_is_whole
from tests.support.players import Player, create_match
from tests.support.workers import ROOT, WorkerProcess, wait_for

pytestmark = [pytest.mark.worker, pytest.mark.slow]


def all_bot_match(owner: Player, target: int) -> int:
    created = create_match(
        owner,
        target=target,
        visibility="public",
        bots={"1": "easy", "2": "normal", "3": "easy"},
        turn_seconds=600,
    )
    with transaction.atomic():
        match = services.match_lock(created["id"])
        services.seat_replace_with_bot(match=match, seat_index=0, level="easy")
    return created["id"]


def moves_of(match_id: int) -> int:
    return Move.objects.filter(match_id=match_id).count()


def finished(match_ids: list[int]) -> bool:
    return Match.objects.filter(pk__in=match_ids, status=MatchStatus.FINISHED).count() == len(
        match_ids
    )


def test_worker_killed_and_queue_lost_mid_game(
    worker: WorkerProcess, make_player: Callable[..., Player]
) -> None:
    bots_a = all_bot_match(make_player(), target=60)
    bots_b = all_bot_match(make_player(), target=60)
    sleeper = make_player()
    absent = create_match(
        sleeper, target=40, bots={"1": "easy", "2": "easy", "3": "easy"}, turn_seconds=2
    )["id"]
    ids = [bots_a, bots_b, absent]

    wait_for(
        lambda: moves_of(bots_a) >= 20 and moves_of(bots_b) >= 20,
        timeout=60,
        worker=worker,
        what="the bots to get going",
    )
    worker.kill9()
    # Lose every queued message, as a broker restart without persistence would.
    subprocess.run(
        [sys.executable, "-m", "celery", "-A", "baloot_site", "purge", "-f"],
        cwd=ROOT,
        env=worker.env,
        capture_output=True,
        check=True,
        timeout=60,
    )
    stalled = {m: moves_of(m) for m in ids}
    time.sleep(1.0)  # nothing plays while no worker runs
    assert {m: moves_of(m) for m in ids} == stalled
    worker.start()
    # A bounded wait, generous for a loaded machine (CI runs two suites side by side).
    wait_for(lambda: finished(ids), timeout=300, worker=worker, what="all three to finish")

    for match_id in ids:
        assert moves_of(match_id) > stalled[match_id]
        assert_log_is_whole(match_id)
    actors: Any = set(Move.objects.filter(match_id=absent, seat=0).values_list("actor", flat=True))
    assert Actor.TIMEOUT in actors  # the absent human's deadlines fired, through the restart
