"""The hard bot's turns in-process: routed to a queue of their own (``play_hard_bot_turn``),
never thought on the default queue nor inline by the sweep, sent again by the sweep at most
once per grace, and thought by one worker at a time (the turn's lease).

As in test_turn_rules.py, the clock is set by hand and ``commit()`` hands back the tasks a
commit enqueued; the tasks are run in-process, as a worker would run them. A hard bot thinks
for real here, on a budget of 20 ms. tests/tasks/test_worker_play.py plays a hard bot through
real worker processes, one per queue.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any

import pytest
from django.db import OperationalError

from baloot_site.celery import app
from games import services, tasks
from games.models import Actor, Match, Move
from games.services import turns
from games.services.scheduling import BOT_GRACE_SECONDS
from tests.support.api import fingerprint, fix_deal
from tests.support.clock import FakeClock
from tests.support.players import Player, create_match
from tests.support.tasks import Queued, bot_task, deadline_task, hard_bot_task

Commit = Callable[[], AbstractContextManager[list[Queued]]]

HARD_BUDGET = 0.02
HARD_GRACE = BOT_GRACE_SECONDS + HARD_BUDGET  # a hard turn's grace: its think on top
HARD_LEASE = HARD_BUDGET + BOT_GRACE_SECONDS  # a think's lease: the think and the same slack
HARD_BOTS = {"1": "hard", "2": "hard", "3": "hard"}


@pytest.fixture(autouse=True)
def _quick_hard_bot(settings: Any) -> None:
    settings.BALOOT = {**settings.BALOOT, "HARD_BOT_TIME_BUDGET": HARD_BUDGET}


@pytest.fixture
def thoughts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The level of every bot decision made from now on (the engine's ``choose_move``, spied
    on: a hard bot thought inline on the default queue would show up here)."""
    from games.engine import bots

    real = bots.choose_move
    made: list[str] = []

    def spy(level: str, *args: Any, **kwargs: Any) -> Any:
        made.append(level)
        return real(level, *args, **kwargs)

    monkeypatch.setattr(bots, "choose_move", spy)
    return made


def hard_table(
    monkeypatch: pytest.MonkeyPatch,
    commit: Commit,
    human: Player,
    bots: dict[str, str] = HARD_BOTS,
) -> tuple[int, list[Queued]]:
    """A new match of ``human`` (seat 0) against ``bots``, dealt by seat 0 so seat 1 acts
    first; its id and what its start enqueued."""
    fix_deal(monkeypatch, dealer=0)
    with commit() as queued:
        created = create_match(human, target=500, bots=bots, turn_seconds=60)
    return created["id"], queued


def match(match_id: int) -> Match:
    return Match.objects.get(pk=match_id)


def moves(match_id: int) -> list[tuple[int, str]]:
    return list(Move.objects.filter(match_id=match_id).order_by("seq").values_list("seat", "actor"))


# --- Routing ------------------------------------------------------------------------------------


def test_the_hard_task_goes_to_the_hard_queue_and_every_other_task_to_the_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What Celery does with each task on its way to the broker: the task's options, then the
    router (CELERY_TASK_ROUTES), as ``send_task`` does."""
    sent: list[tuple[str, dict[str, Any]]] = []
    monkeypatch.setattr(
        app,
        "send_task",
        lambda name, args=None, kwargs=None, **options: sent.append((name, options)),
    )
    tasks.play_hard_bot_turn.delay(1, 2)
    tasks.play_bot_turn.delay(1, 2)
    tasks.expire_turn.delay(1, 2)
    tasks.sweep_deadlines.delay()
    queues = {
        name.rpartition(".")[2]: app.amqp.router.route(options, name, (), {})["queue"].name
        for name, options in sent
    }
    assert queues == {
        "play_hard_bot_turn": "bots-hard",
        "play_bot_turn": "celery",
        "expire_turn": "celery",
        "sweep_deadlines": "celery",
    }
    assert (tasks.HARD_BOT_QUEUE, tasks.DEFAULT_QUEUE) == ("bots-hard", "celery")


def test_a_hard_seat_s_turn_enqueues_the_hard_task_with_its_think_added_to_the_grace(
    monkeypatch: pytest.MonkeyPatch,
    clock: FakeClock,
    commit: Commit,
    make_player: Any,
    thoughts: list[str],
) -> None:
    match_id, queued = hard_table(monkeypatch, commit, make_player())
    version = match(match_id).version
    assert queued == [hard_bot_task(match_id, version)]
    assert match(match_id).deadline == clock.after(HARD_GRACE)

    with commit() as queued:
        assert tasks.play_hard_bot_turn(match_id, version) is True
    assert moves(match_id) == [(1, Actor.BOT)]
    assert thoughts == ["hard"]
    assert queued == [hard_bot_task(match_id, version + 1)]  # seat 2 is a hard bot too
    assert match(match_id).thinking_until is None  # the commit ended the lease


def test_each_seat_s_turn_is_routed_by_its_own_level(
    monkeypatch: pytest.MonkeyPatch,
    clock: FakeClock,
    commit: Commit,
    make_player: Any,
    thoughts: list[str],
) -> None:
    match_id, queued = hard_table(
        monkeypatch, commit, make_player(), bots={"1": "easy", "2": "hard", "3": "normal"}
    )
    version = match(match_id).version
    assert queued == [bot_task(match_id, version)]
    assert match(match_id).deadline == clock.after(BOT_GRACE_SECONDS)
    with commit() as queued:
        assert tasks.play_bot_turn(match_id, version) is True
    assert queued == [hard_bot_task(match_id, version + 1)]
    with commit() as queued:
        assert tasks.play_hard_bot_turn(match_id, version + 1) is True
    assert queued == [bot_task(match_id, version + 2)]
    with commit() as queued:
        assert tasks.play_bot_turn(match_id, version + 2) is True
    assert queued == [deadline_task(match_id, version + 3, clock.after(60))]
    assert thoughts == ["easy", "hard", "normal"]
    assert moves(match_id) == [(1, Actor.BOT), (2, Actor.BOT), (3, Actor.BOT)]


# --- The default queue and the sweep never think a hard turn -----------------------------------


def test_the_default_queue_s_task_never_thinks_a_hard_turn(
    monkeypatch: pytest.MonkeyPatch,
    clock: FakeClock,
    commit: Commit,
    make_player: Any,
    thoughts: list[str],
) -> None:
    """A bot task on the default queue for a hard seat (sent by hand, or by a process older
    than the routing) plays nothing there. Within the turn's grace it leaves the turn to the
    hard task; past it, it sends the turn to the hard queue, as the sweep does."""
    match_id, _lost = hard_table(monkeypatch, commit, make_player())
    version = match(match_id).version
    stored = fingerprint(match_id)
    with commit() as queued:
        assert tasks.play_bot_turn(match_id, version) is False
    assert queued == [] and fingerprint(match_id) == stored

    clock.advance(HARD_GRACE)
    with commit() as queued:
        assert tasks.play_bot_turn(match_id, version) is False
    assert queued == [hard_bot_task(match_id, version)]
    assert match(match_id).deadline == clock.after(HARD_GRACE)
    assert thoughts == [] and moves(match_id) == []


def test_the_sweep_sends_a_due_hard_turn_to_its_queue_once_a_grace_and_never_thinks_it(
    monkeypatch: pytest.MonkeyPatch,
    clock: FakeClock,
    commit: Commit,
    make_player: Any,
    thoughts: list[str],
) -> None:
    match_id, _lost = hard_table(monkeypatch, commit, make_player())  # its task is lost
    version = match(match_id).version

    clock.advance(HARD_GRACE - 1)  # not due yet
    with commit() as queued:
        assert tasks.sweep_deadlines() == 0
    assert queued == []

    clock.advance(1)  # due: sent again, not played here
    with commit() as queued:
        assert tasks.sweep_deadlines() == 0
    assert queued == [hard_bot_task(match_id, version)]
    assert thoughts == [] and moves(match_id) == []
    assert match(match_id).deadline == clock.after(HARD_GRACE)

    # The sweeps of the next seconds leave it to the task just sent (the hard queue may be
    # busy); the task is not sent every second.
    for _ in range(int(HARD_GRACE)):
        clock.advance(1)
        with commit() as queued:
            assert tasks.sweep_deadlines() == 0
        assert queued == []

    # That one is lost too: once its grace is over, it is sent once more.
    clock.advance(HARD_GRACE - int(HARD_GRACE))
    with commit() as queued:
        assert tasks.sweep_deadlines() == 0
    assert queued == [hard_bot_task(match_id, version)]

    with commit() as queued:
        assert tasks.play_hard_bot_turn(match_id, version) is True
    assert moves(match_id) == [(1, Actor.BOT)] and thoughts == ["hard"]


def test_two_sweeps_at_once_send_a_due_hard_turn_once(
    monkeypatch: pytest.MonkeyPatch, clock: FakeClock, commit: Commit, make_player: Any
) -> None:
    """Sweeps may overlap (one that settles many turns outlasts the interval). Both read the
    turn as due; the second's hand-over finds the deadline moved and sends nothing."""
    match_id, _lost = hard_table(monkeypatch, commit, make_player())
    version = match(match_id).version
    clock.advance(HARD_GRACE)
    real = services.bot_turn_play

    def another_sweep_first(*, match_id: int, expected_version: int) -> bool:
        monkeypatch.setattr(services, "bot_turn_play", real)
        assert tasks.sweep_deadlines() == 0  # the other sweep, between our read and our turn
        return real(match_id=match_id, expected_version=expected_version)

    monkeypatch.setattr(services, "bot_turn_play", another_sweep_first)
    with commit() as queued:
        assert tasks.sweep_deadlines() == 0
    assert queued == [hard_bot_task(match_id, version)]


# --- One think at a time ----------------------------------------------------------------------


@pytest.fixture
def during_think(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Callable[[], None]]]:
    """Callbacks run once, while the next hard bot is thinking (inside its search)."""
    from games.engine import bots

    real = bots.choose_move
    hooks: list[Callable[[], None]] = []

    def thinking(level: str, *args: Any, **kwargs: Any) -> Any:
        while hooks:
            hooks.pop(0)()
        return real(level, *args, **kwargs)

    monkeypatch.setattr(bots, "choose_move", thinking)
    yield hooks
    assert hooks == [], "the hard bot never thought"


def test_while_a_worker_thinks_a_second_task_does_not_and_the_sweep_waits(
    monkeypatch: pytest.MonkeyPatch,
    clock: FakeClock,
    commit: Commit,
    make_player: Any,
    during_think: list[Callable[[], None]],
) -> None:
    match_id, _queued = hard_table(monkeypatch, commit, make_player())
    version = match(match_id).version
    clock.advance(2)  # the task waited in a busy hard queue
    duplicate: list[bool] = []

    def meanwhile() -> None:
        leased = match(match_id)
        assert leased.thinking_until == clock.after(HARD_LEASE)
        assert leased.deadline == leased.thinking_until  # the sweep waits for the think
        # A second task for the same turn (the sweep's, or a redelivery) does not think it.
        duplicate.append(tasks.play_hard_bot_turn(match_id, version))
        # The turn's first grace is over, but not the lease: the sweep leaves it alone.
        clock.advance(HARD_GRACE - 1)
        assert tasks.sweep_deadlines() == 0

    during_think.append(meanwhile)
    with commit() as queued:
        assert tasks.play_hard_bot_turn(match_id, version) is True
    assert duplicate == [False]
    assert moves(match_id) == [(1, Actor.BOT)]
    assert queued == [hard_bot_task(match_id, version + 1)]  # and no hand-over meanwhile
    stored = fingerprint(match_id)
    assert tasks.play_hard_bot_turn(match_id, version) is False  # late: the match moved on
    assert fingerprint(match_id) == stored


def test_a_worker_killed_mid_think_leaves_the_turn_to_the_sweep_once_its_lease_is_over(
    monkeypatch: pytest.MonkeyPatch,
    clock: FakeClock,
    commit: Commit,
    make_player: Any,
    thoughts: list[str],
) -> None:
    match_id, _queued = hard_table(monkeypatch, commit, make_player())
    version = match(match_id).version
    # What a worker does before it thinks; then it is killed (kill -9 runs nothing more).
    assert turns._hard_lease_take(match(match_id)) is not None

    assert tasks.play_hard_bot_turn(match_id, version) is False  # the lease still holds
    clock.advance(HARD_LEASE - 0.5)
    with commit() as queued:
        assert tasks.sweep_deadlines() == 0
    assert queued == []
    clock.advance(0.5)  # the lease is over: the sweep sends the turn again
    with commit() as queued:
        assert tasks.sweep_deadlines() == 0
    assert queued == [hard_bot_task(match_id, version)]
    with commit():
        assert tasks.play_hard_bot_turn(match_id, version) is True
    assert moves(match_id) == [(1, Actor.BOT)] and thoughts == ["hard"]


def test_a_database_error_at_commit_gives_the_lease_back_for_the_retry(
    monkeypatch: pytest.MonkeyPatch, clock: FakeClock, commit: Commit, make_player: Any
) -> None:
    match_id, _queued = hard_table(monkeypatch, commit, make_player())
    version = match(match_id).version
    real = turns._bot_move_commit
    failures = [OperationalError("the database went away for a moment")]

    def fails_once(*args: Any) -> bool:
        if failures:
            raise failures.pop()
        return real(*args)

    monkeypatch.setattr(turns, "_bot_move_commit", fails_once)
    with pytest.raises(OperationalError):
        services.hard_bot_turn_play(match_id=match_id, expected_version=version)
    assert match(match_id).thinking_until is None and moves(match_id) == []
    # The task's automatic retry (autoretry_for DatabaseError) thinks it again at once.
    with commit():
        assert services.hard_bot_turn_play(match_id=match_id, expected_version=version)
    assert moves(match_id) == [(1, Actor.BOT)]
