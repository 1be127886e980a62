"""Asynchronous play with a real worker process: bots answer, deadlines expire, a hard-killed
worker loses and duplicates nothing (issue: asynchronous play)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.db import transaction

from games import services
from games.models import Actor, Match, MatchStatus, Move, Seat
from tests.support.logs import assert_log_is_whole
from tests.support.players import Player, create_match
from tests.support.workers import WorkerProcess, wait_for

pytestmark = pytest.mark.worker


def test_human_and_three_bots_play_to_the_end(worker: WorkerProcess, make_player: Any) -> None:
    human: Player = make_player()
    created = create_match(
        human, target=40, bots={"1": "easy", "2": "normal", "3": "easy"}, turn_seconds=600
    )
    match_id = created["id"]
    rng = random.Random(5)
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
    actors = set(Move.objects.filter(match_id=match_id).values_list("actor", flat=True))
    assert actors == {Actor.HUMAN, Actor.BOT}
    bot_seats = set(
        Move.objects.filter(match_id=match_id, actor=Actor.BOT).values_list("seat", flat=True)
    )
    assert bot_seats == {1, 2, 3}
    assert_log_is_whole(match_id)


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
