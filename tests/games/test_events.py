"""The events a match emits (games.events through core.events): which, in what order, with
which version, and only inside the write transaction that makes the change, so a listener's
outbox row commits or rolls back with it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any

import pytest
from django.conf import settings
from django.db import transaction

from core import events
from games import tasks
from games.events import MatchFinished, MatchStarted, SeatHandedToBot, TurnBegan, VersionCommitted
from games.models import Match
from tests.support.api import fix_deal, post_move, view_of
from tests.support.clock import FakeClock
from tests.support.players import Player, create_match
from tests.support.tasks import BOT, DEADLINE, Queued

Commit = Callable[[], AbstractContextManager[list[Queued]]]
EVENT_TYPES = (VersionCommitted, TurnBegan, MatchStarted, MatchFinished, SeatHandedToBot)
THREE_BOTS = {"1": "easy", "2": "easy", "3": "easy"}


@pytest.fixture
def heard() -> Iterator[list[Any]]:
    """Every game event emitted during the test, each checked to come inside a transaction."""
    got: list[Any] = []

    def listen(event: Any) -> None:
        assert transaction.get_connection().in_atomic_block, event
        got.append(event)

    for kind in EVENT_TYPES:
        events.subscribe(kind, listen)
    yield got
    for kind in EVENT_TYPES:
        events.unsubscribe(kind, listen)


def version(match_id: int) -> int:
    return Match.objects.get(pk=match_id).version


def kinds(got: list[Any]) -> list[str]:
    return [type(e).__name__ for e in got]


def test_a_start_emits_the_version_the_start_and_the_first_human_turn(
    monkeypatch: pytest.MonkeyPatch, clock: FakeClock, heard: list[Any], make_player: Any
) -> None:
    fix_deal(monkeypatch, dealer=3)  # seat 0, the human, bids first
    human = make_player()
    created = create_match(human, target=500, bots=THREE_BOTS, turn_seconds=60)
    match_id, v = created["id"], version(created["id"])

    assert heard == [
        VersionCommitted(match_id=match_id, version=v),
        TurnBegan(
            match_id=match_id,
            version=v,
            seat=0,
            user_id=human.id,
            deadline=clock.after(60),
            turn_seconds=60,
        ),
        MatchStarted(match_id=match_id, version=v),
    ]


def test_a_bot_turn_is_no_human_turn_and_a_refused_move_emits_nothing(
    monkeypatch: pytest.MonkeyPatch, heard: list[Any], table: Callable[..., Any]
) -> None:
    fix_deal(monkeypatch, dealer=0)  # seat 1 bids first
    view, players = table(turn_seconds=60)
    match_id = view["id"]
    heard.clear()

    # Seat 2 out of turn: refused, and nothing was emitted for it.
    legal = view_of(players[1], match_id)["round"]["legal_moves"][0]
    assert post_move(players[2], match_id, legal).status_code == 422
    assert heard == []

    assert post_move(players[1], match_id, legal).status_code == 201
    v = version(match_id)
    assert kinds(heard) == ["VersionCommitted", "TurnBegan"]
    assert heard[1].seat == 2 and heard[1].user_id == players[2].id and heard[1].version == v


def test_resigning_emits_the_end_with_the_winner(
    monkeypatch: pytest.MonkeyPatch, heard: list[Any], table: Callable[..., Any]
) -> None:
    view, players = table()
    match_id = view["id"]
    heard.clear()
    assert players[1].client.post(f"/api/v1/matches/{match_id}/resign").status_code == 200

    v = version(match_id)
    assert heard == [
        VersionCommitted(match_id=match_id, version=v),
        MatchFinished(
            match_id=match_id, version=v, status="finished", winner_team=0, end_reason="resigned"
        ),
    ]


def test_the_third_timeout_hands_the_seat_to_a_bot_once(
    monkeypatch: pytest.MonkeyPatch,
    clock: FakeClock,
    commit: Commit,
    heard: list[Any],
    make_player: Callable[..., Player],
) -> None:
    fix_deal(monkeypatch, dealer=3)  # the human acts first
    human = make_player()
    with commit() as queued:
        match_id = create_match(human, target=500, bots=THREE_BOTS, turn_seconds=60)["id"]
    handed: list[SeatHandedToBot] = []
    for _ in range(200):
        if len(handed) == 1 and not queued:
            break
        (task,) = queued
        if task.task == DEADLINE:
            assert task.eta is not None
            clock.at = task.eta
            with commit() as queued:
                assert tasks.expire_turn(*task.args) is True
        else:
            assert task.task == BOT
            with commit() as queued:
                assert tasks.play_bot_turn(*task.args) is True
        handed = [e for e in heard if isinstance(e, SeatHandedToBot)]
        if handed and Match.objects.get(pk=match_id).seats.get(index=0).away:
            break
    assert len(handed) == 1, kinds(heard)
    (event,) = handed
    assert (event.seat, event.user_id, event.reason) == (0, human.id, "timeouts")
    # Emitted with the version of the third timeout's move, after which the bot plays.
    timeouts = settings.BALOOT["AWAY_AFTER_TIMEOUTS"]
    turns = [e for e in heard if isinstance(e, TurnBegan)]
    assert len(turns) == timeouts
    assert event.version > turns[-1].version


def test_a_listener_that_fails_rolls_the_change_back(
    monkeypatch: pytest.MonkeyPatch, table: Callable[..., Any]
) -> None:
    fix_deal(monkeypatch, dealer=0)
    view, players = table()
    match_id = view["id"]
    before = version(match_id)

    def boom(event: VersionCommitted) -> None:
        raise RuntimeError("listener failed")

    events.subscribe(VersionCommitted, boom)
    try:
        legal = view_of(players[1], match_id)["round"]["legal_moves"][0]
        with pytest.raises(RuntimeError):
            post_move(players[1], match_id, legal)
    finally:
        events.unsubscribe(VersionCommitted, boom)
    assert version(match_id) == before
