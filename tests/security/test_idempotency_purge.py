"""Idempotency records are purged after their TTL (issue 9: ``IDEMPOTENCY_TTL_HOURS`` was read
by nothing and the rows grew forever). Within the TTL a retry replays; after it the key is
free again, whether the beat purge has run yet or not."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from games import idempotency
from games.models import IdempotencyRecord, Match
from games.tasks import purge_idempotency_records
from tests.support.api import assert_problem, match_url, post_move, to_act
from tests.support.players import Player

TTL = timedelta(hours=settings.BALOOT["IDEMPOTENCY_TTL_HOURS"])


def _age(by: timedelta) -> None:
    IdempotencyRecord.objects.update(created_at=timezone.now() - by)


def _first_move(table: Callable[..., Any]) -> tuple[dict[str, Any], Player, dict[str, Any]]:
    view, players = table()
    seat = to_act(view["id"])
    move = players[seat].client.get(match_url(view["id"])).json()["round"]["legal_moves"][0]
    return view, players[seat], move


def test_a_retry_within_the_ttl_replays_and_survives_the_purge(table: Callable[..., Any]) -> None:
    view, player, move = _first_move(table)
    first = post_move(player, view["id"], move, HTTP_IDEMPOTENCY_KEY="k1")
    assert first.status_code == 201
    _age(TTL - timedelta(minutes=1))
    assert idempotency.purge_expired() == 0
    again = post_move(player, view["id"], move, HTTP_IDEMPOTENCY_KEY="k1")
    assert again.status_code == 201
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert Match.objects.get(pk=view["id"]).version == first.json()["version"]


def test_the_purge_deletes_records_past_the_ttl_and_frees_the_key(
    table: Callable[..., Any],
) -> None:
    view, player, move = _first_move(table)
    assert post_move(player, view["id"], move, HTTP_IDEMPOTENCY_KEY="k1").status_code == 201
    other = {"type": "bid", "call": "hokum"}
    assert_problem(
        post_move(player, view["id"], other, HTTP_IDEMPOTENCY_KEY="k1"),
        422,
        "idempotency_key_reused",
    )
    _age(TTL + timedelta(seconds=1))
    assert idempotency.purge_expired() == 1
    assert not IdempotencyRecord.objects.exists()
    # The key is free: the same key with another body is judged as a new move (it is not this
    # player's turn any more), not refused as a reused key.
    assert_problem(
        post_move(player, view["id"], other, HTTP_IDEMPOTENCY_KEY="k1"), 422, "not_your_turn"
    )


def test_a_record_past_the_ttl_is_not_replayed_before_the_purge_runs(
    table: Callable[..., Any],
) -> None:
    view, player, move = _first_move(table)
    assert post_move(player, view["id"], move, HTTP_IDEMPOTENCY_KEY="k1").status_code == 201
    _age(TTL + timedelta(seconds=1))
    again = post_move(player, view["id"], move, HTTP_IDEMPOTENCY_KEY="k1")
    assert "Idempotent-Replayed" not in again
    assert_problem(again, 422, "not_your_turn")


def test_the_purge_keeps_fresh_records_and_works_in_batches(table: Callable[..., Any]) -> None:
    view, players = table()
    now = timezone.now()
    for n in range(7):
        IdempotencyRecord.objects.create(
            user=players[n % 4].user,
            match_id=view["id"],
            key=f"key-{n}",
            fingerprint="f",
            status_code=201,
            body={},
        )
    old = IdempotencyRecord.objects.filter(key__in=[f"key-{n}" for n in range(5)])
    old.update(created_at=now - TTL - timedelta(hours=1))
    assert idempotency.purge_expired(now=now, batch=2) == 5
    assert sorted(IdempotencyRecord.objects.values_list("key", flat=True)) == ["key-5", "key-6"]
    # Moving the clock past the TTL of the rest purges them too.
    assert idempotency.purge_expired(now=now + TTL + timedelta(seconds=1)) == 2


def test_the_beat_task_purges_and_is_scheduled(table: Callable[..., Any]) -> None:
    view, player, move = _first_move(table)
    post_move(player, view["id"], move, HTTP_IDEMPOTENCY_KEY="k1")
    _age(TTL + timedelta(minutes=5))
    assert purge_idempotency_records.apply().get() == 1
    schedule = settings.CELERY_BEAT_SCHEDULE
    entries = [e for e in schedule.values() if e["task"] == purge_idempotency_records.name]
    assert len(entries) == 1
    assert 0 < float(entries[0]["schedule"]) <= 3600
    from baloot_site.celery import app

    app.loader.import_default_modules()
    assert purge_idempotency_records.name in app.tasks
