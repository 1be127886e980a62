"""Asynchronous play with a real worker process: bots answer, deadlines expire, a hard-killed
worker loses and duplicates nothing (issue: asynchronous play); a hard bot plays through the
worker of its own queue, as ``make run`` starts it."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import transaction

from games import services
from games.models import Actor, Match, MatchStatus, Move, Seat
from games.tasks import DEFAULT_QUEUE, HARD_BOT_QUEUE
from tests.support.logs import assert_log_is_whole
from tests.support.players import Player, create_match
from tests.support.workers import WorkerProcess, wait_for, worker_start

pytestmark = pytest.mark.worker


def _play_to_the_end(
    human: Player, bots: dict[str, str], worker: WorkerProcess, seed: int = 5
) -> int:
    """``human`` (seat 0) plays random legal moves against ``bots`` to the end of a short
    match; the match id."""
    created = create_match(human, target=40, bots=bots, turn_seconds=600)
    match_id = created["id"]
    rng = random.Random(seed)
    human_moves = 0

    def my_turn_or_over() -> dict[str, Any] | None:
        view = human.client.get(f"/api/v1/matches/{match_id}").json()
        if view["status"] != "active" or view["round"]["legal_moves"]:
            return view
        return None

    while True:
        view = wait_for(my_turn_or_over, timeout=60, worker=worker, what="the bots to answer")
        if view["status"] != "active":
            break
        rnd = view["round"]
        assert rnd["deadline"] is not None  # a human turn shows its clock
        move = rng.choice(rnd["legal_moves"])
        response = human.client.post(
            f"/api/v1/matches/{match_id}/moves",
            {**move, "expected_version": view["version"]},
            format="json",
        )
        assert response.status_code == 201, response.content
        human_moves += 1

    assert view["status"] == "finished"
    assert human_moves > 0
    return match_id


def _assert_bots_played_every_bot_seat(match_id: int) -> None:
    actors = set(Move.objects.filter(match_id=match_id).values_list("actor", flat=True))
    assert actors == {Actor.HUMAN, Actor.BOT}
    bot_seats = set(
        Move.objects.filter(match_id=match_id, actor=Actor.BOT).values_list("seat", flat=True)
    )
    assert bot_seats == {1, 2, 3}
    assert_log_is_whole(match_id)


def test_human_and_three_bots_play_to_the_end(worker: WorkerProcess, make_player: Any) -> None:
    match_id = _play_to_the_end(make_player(), {"1": "easy", "2": "normal", "3": "easy"}, worker)
    _assert_bots_played_every_bot_seat(match_id)


@pytest.fixture
def queue_workers(transactional_db: None, tmp_path: Path) -> Iterator[dict[str, WorkerProcess]]:
    """One worker per queue, as ``make run`` starts them: the default queue's with beat (the
    sweep), the hard bots' on its own."""
    started = {"default": worker_start(tmp_path, queues=(DEFAULT_QUEUE,), name="default")}
    try:
        started["hard"] = worker_start(
            tmp_path, queues=(HARD_BOT_QUEUE,), beat=False, name="hard", purge=False
        )
        yield started
    finally:
        for process in started.values():
            process.stop()


def _tasks_run(process: WorkerProcess, task: str) -> int:
    return len(re.findall(rf"Task games\.tasks\.{task}\[[^\]]+\] succeeded", process.logs()))


def test_a_hard_bot_plays_through_the_worker_of_its_own_queue(
    queue_workers: dict[str, WorkerProcess], make_player: Any
) -> None:
    default, hard = queue_workers["default"], queue_workers["hard"]
    match_id = _play_to_the_end(
        make_player(), {"1": "hard", "2": "easy", "3": "hard"}, hard, seed=7
    )
    _assert_bots_played_every_bot_seat(match_id)
    hard_moves = Move.objects.filter(match_id=match_id, actor=Actor.BOT, seat__in=(1, 3))
    # Every hard seat's move was a task of the hard queue's worker; the default worker ran the
    # easy partner's turns and never a hard bot's (its sweep may only send one over).
    assert _tasks_run(hard, "play_hard_bot_turn") >= hard_moves.count() > 0
    assert _tasks_run(hard, "play_bot_turn") == 0
    assert _tasks_run(default, "play_bot_turn") > 0
    assert "play_hard_bot_turn[" not in default.logs()  # not even received there


def test_deadlines_expire_three_timeouts_make_the_seat_away_and_back_returns_it(
    worker: WorkerProcess, make_player: Any
) -> None:
    human: Player = make_player()
    created = create_match(
        human, target=500, bots={"1": "easy", "2": "easy", "3": "easy"}, turn_seconds=2
    )
    match_id = created["id"]

    def timeouts() -> int:
        return Move.objects.filter(match_id=match_id, seat=0, actor=Actor.TIMEOUT).count()

    wait_for(lambda: timeouts() >= 3, timeout=60, worker=worker, what="three timeouts")
    seat = Seat.objects.get(match_id=match_id, index=0)
    assert seat.away is True
    assert timeouts() == 3  # the third made the seat away; no more timeouts after it
    # From now on the bot plays seat 0 at once, logged as `bot`, not `timeout`.
    wait_for(
        lambda: Move.objects.filter(match_id=match_id, seat=0, actor=Actor.BOT).exists(),
        timeout=30,
        worker=worker,
        what="the bot to play the away seat",
    )
    view = human.client.get(f"/api/v1/matches/{match_id}").json()
    assert view["seats"][0]["away"] is True
    assert view["seats"][0]["bot"] is None  # still the player's seat

    back = human.client.post(f"/api/v1/matches/{match_id}/back")
    assert back.status_code == 200, back.content
    assert back.json()["seats"][0]["away"] is False

    def my_turn() -> dict[str, Any] | None:
        v = human.client.get(f"/api/v1/matches/{match_id}").json()
        return v if v["round"] and v["round"]["legal_moves"] else None

    view = wait_for(my_turn, timeout=30, worker=worker, what="the player's turn")
    response = human.client.post(
        f"/api/v1/matches/{match_id}/moves",
        {**view["round"]["legal_moves"][0], "expected_version": view["version"]},
        format="json",
    )
    assert response.status_code == 201, response.content
    last = Move.objects.filter(match_id=match_id, seat=0).order_by("-seq").first()
    assert last is not None and last.actor == Actor.HUMAN
    seat.refresh_from_db()
    assert (seat.away, seat.timeouts_in_row) == (False, 0)
    assert_log_is_whole(match_id)


def test_kill_minus_nine_mid_match_loses_and_duplicates_nothing(
    worker: WorkerProcess, make_player: Any
) -> None:
    owner: Player = make_player()
    created = create_match(
        owner, target=60, bots={"1": "easy", "2": "easy", "3": "easy"}, turn_seconds=600
    )
    match_id = created["id"]
    with transaction.atomic():
        match = services.match_lock(match_id)
        services.seat_replace_with_bot(match=match, seat_index=0, level="easy")

    def moves() -> int:
        return Move.objects.filter(match_id=match_id).count()

    wait_for(lambda: moves() >= 30, timeout=60, worker=worker, what="the bots to get going")
    worker.kill9()
    stalled_at = moves()
    worker.start()
    wait_for(
        lambda: Match.objects.get(pk=match_id).status == MatchStatus.FINISHED,
        timeout=180,
        worker=worker,
        what="the match to finish after the restart",
    )
    assert moves() > stalled_at
    assert_log_is_whole(match_id)
