"""The turn rules in-process (api.md "Turns, bots, timeouts"): which task each kind of commit
enqueues, for which (match, version) and when; what a stale task does; timeouts, away seats
and coming back; and the sweep of due turns.

Time is set by hand (the ``clock`` fixture replaces ``core.clock.now``), so no test sleeps;
``commit()`` runs the ``on_commit`` callbacks a block registered and hands back the tasks
they enqueued (``Queued``), recorded in place of ``apply_async``. The tasks themselves are
called in-process, as a worker would run them. tests/tasks/test_worker_play.py plays the same
rules end to end with a real worker.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import pytest
from django.conf import settings

from games import services, tasks
from games.models import Actor, Heartbeat, Match, MatchStatus, Move, Seat
from games.services.scheduling import BOT_GRACE_SECONDS
from tests.support.api import fingerprint, fix_deal, post_move, view_of
from tests.support.clock import FakeClock
from tests.support.players import Player, create_match
from tests.support.tasks import BOT, DEADLINE, Queued, bot_task, deadline_task

Commit = Callable[[], AbstractContextManager[list[Queued]]]

THREE_BOTS = {"1": "easy", "2": "easy", "3": "easy"}
AWAY_AFTER = settings.BALOOT["AWAY_AFTER_TIMEOUTS"]


# --- Helpers ----------------------------------------------------------------------------------


def version(match_id: int) -> int:
    return Match.objects.get(pk=match_id).version


def deadline(match_id: int) -> Any:
    return Match.objects.get(pk=match_id).deadline


def seat0(match_id: int) -> Seat:
    return Seat.objects.get(match_id=match_id, index=0)


def moves(match_id: int) -> list[tuple[int, str]]:
    """The log as (seat, actor) pairs."""
    return list(Move.objects.filter(match_id=match_id).order_by("seq").values_list("seat", "actor"))


def move_in_time(player: Player, match_id: int) -> None:
    """``player`` makes the first of their legal moves."""
    view = view_of(player, match_id)
    assert view["round"]["legal_moves"], view
    move = {**view["round"]["legal_moves"][0], "expected_version": view["version"]}
    response = post_move(player, match_id, move)
    assert response.status_code == 201, response.content


def against_bots(
    monkeypatch: pytest.MonkeyPatch,
    commit: Commit,
    human: Player,
    *,
    dealer: int,
    turn_seconds: int = 60,
) -> tuple[int, list[Queued]]:
    """A new match of ``human`` (seat 0) against three easy bots, dealt by ``dealer`` (so
    seat ``dealer + 1`` acts first); returns its id and what its start enqueued."""
    fix_deal(monkeypatch, dealer=dealer)
    with commit() as queued:
        created = create_match(human, target=500, bots=THREE_BOTS, turn_seconds=turn_seconds)
    return created["id"], queued


def run_bots(
    commit: Commit, queued: list[Queued], *, until_seat: int | None = None
) -> list[Queued]:
    """Run the enqueued bot tasks one after another, as a worker would, until a human's turn
    (or, with ``until_seat``, until that seat is to act); returns what was enqueued last."""
    for _ in range(200):
        if not queued or queued[0].task != BOT:
            return queued
        (task,) = queued
        match_id, _version = task.args
        if until_seat is not None and Match.objects.get(pk=match_id).to_act == until_seat:
            return queued
        with commit() as queued:
            assert tasks.play_bot_turn(*task.args) is True
    raise AssertionError("the bots never handed the turn back")


def time_out(clock: FakeClock, commit: Commit, queued: list[Queued]) -> list[Queued]:
    """Let the enqueued deadline pass and run its task; returns what that enqueued."""
    (task,) = queued
    assert task.task == DEADLINE and task.eta is not None
    clock.at = task.eta
    with commit() as queued:
        assert tasks.expire_turn(*task.args) is True
    return queued


# --- What each kind of commit enqueues ----------------------------------------------------------


@pytest.mark.parametrize("turn_seconds", [60, tasks.COUNTDOWN_MAX_SECONDS])
def test_a_human_turn_within_ten_minutes_enqueues_its_deadline_task(
    monkeypatch: pytest.MonkeyPatch,
    clock: FakeClock,
    commit: Commit,
    table: Callable[..., Any],
    turn_seconds: int,
) -> None:
    fix_deal(monkeypatch, dealer=0)  # seat 1 bids first
    view, players = table(turn_seconds=turn_seconds)
    match_id = view["id"]

    with commit() as queued:
        move_in_time(players[1], match_id)

    # Seat 2's turn: its deadline task, for the new version, due exactly at the deadline.
    assert Match.objects.get(pk=match_id).to_act == 2
    assert deadline(match_id) == clock.after(turn_seconds)
    assert queued == [deadline_task(match_id, version(match_id), clock.after(turn_seconds))]


@pytest.mark.parametrize("turn_seconds", [tasks.COUNTDOWN_MAX_SECONDS + 1, 86400])
def test_a_far_deadline_is_left_to_the_sweep(
    monkeypatch: pytest.MonkeyPatch,
    clock: FakeClock,
    commit: Commit,
    table: Callable[..., Any],
    turn_seconds: int,
) -> None:
    fix_deal(monkeypatch, dealer=0)
    view, players = table(turn_seconds=turn_seconds)
    match_id = view["id"]

    with commit() as queued:
        move_in_time(players[1], match_id)

    # No task at all (a broker would hold a far-future message unacknowledged), but the
    # deadline is stored, which is all the sweep needs.
    assert queued == []
    assert deadline(match_id) == clock.after(turn_seconds)


def test_a_bot_turn_enqueues_the_bot_task_at_once_with_a_grace_deadline(
    monkeypatch: pytest.MonkeyPatch, clock: FakeClock, commit: Commit, make_player: Any
) -> None:
    match_id, queued = against_bots(monkeypatch, commit, make_player(), dealer=0)

    # Seat 1 (a bot) acts first: its task now (no eta), and a deadline a few seconds off that
    # lets the sweep pick the turn up if the task is lost.
    assert queued == [bot_task(match_id, version(match_id))]
    assert deadline(match_id) == clock.after(BOT_GRACE_SECONDS)

    # The task plays seat 1 as `bot` and enqueues seat 2's, for the version after.
    before = version(match_id)
    with commit() as queued:
        assert tasks.play_bot_turn(match_id, before) is True
    assert moves(match_id) == [(1, Actor.BOT)]
    assert queued == [bot_task(match_id, before + 1)]

    # Seats 2 and 3 are bots too; then the human's turn brings a deadline task.
    queued = run_bots(commit, queued)
    assert moves(match_id) == [(1, Actor.BOT), (2, Actor.BOT), (3, Actor.BOT)]
    assert Match.objects.get(pk=match_id).to_act == 0
    assert queued == [deadline_task(match_id, version(match_id), clock.after(60))]


def test_a_finished_match_enqueues_nothing_and_its_pending_tasks_do_nothing(
    monkeypatch: pytest.MonkeyPatch, clock: FakeClock, commit: Commit, make_player: Any
) -> None:
    human = make_player()
    match_id, queued = against_bots(monkeypatch, commit, human, dealer=3)
    (pending,) = queued  # seat 0's deadline task

    with commit() as queued:
        response = human.client.post(f"/api/v1/matches/{match_id}/resign")
        assert response.status_code == 200, response.content
    match = Match.objects.get(pk=match_id)
    assert match.status == MatchStatus.FINISHED
    assert queued == []
    assert match.deadline is None  # so the sweep never looks at it

    clock.advance(3600)
    stored = fingerprint(match_id)
    with commit() as queued:
        assert tasks.expire_turn(*pending.args) is False
        assert tasks.play_bot_turn(match_id, match.version) is False
    assert queued == []
    assert fingerprint(match_id) == stored


def test_a_stale_task_changes_nothing_and_returns_false(
    monkeypatch: pytest.MonkeyPatch, clock: FakeClock, commit: Commit, make_player: Any
) -> None:
    human = make_player()
    match_id, queued = against_bots(monkeypatch, commit, human, dealer=3)
    (expiry,) = queued

    # The player moves in time; the deadline task of the turn they played is now stale, even
    # once its time has come.
    with commit() as queued:
        move_in_time(human, match_id)
    (bot,) = queued
    clock.advance(3600)
    stored = fingerprint(match_id)
    with commit() as queued:
        assert tasks.expire_turn(*expiry.args) is False
    assert queued == [] and fingerprint(match_id) == stored

    # A bot task delivered twice (acks_late redelivery) plays once.
    with commit() as first:
        assert tasks.play_bot_turn(*bot.args) is True
    stored = fingerprint(match_id)
    with commit() as queued:
        assert tasks.play_bot_turn(*bot.args) is False
    assert queued == [] and fingerprint(match_id) == stored
    assert first == [bot_task(match_id, version(match_id))]

    # A bot task for a human's turn, or a deadline task for a bot's turn, does nothing either.
    queued = run_bots(commit, first)
    (expiry,) = queued
    stored = fingerprint(match_id)
    with commit() as queued:
        assert tasks.play_bot_turn(*expiry.args) is False
    assert queued == [] and fingerprint(match_id) == stored


# --- Timeouts, away seats, coming back ---------------------------------------------------------


def test_an_expired_turn_is_played_as_timeout_and_not_a_moment_before(
    monkeypatch: pytest.MonkeyPatch, clock: FakeClock, commit: Commit, make_player: Any
) -> None:
    match_id, queued = against_bots(monkeypatch, commit, make_player(), dealer=3)
    (expiry,) = queued
    assert expiry == deadline_task(match_id, version(match_id), clock.after(60))

    clock.advance(59)
    stored = fingerprint(match_id)
    with commit() as queued:
        assert tasks.expire_turn(*expiry.args) is False  # a task that runs early waits its turn
    assert queued == [] and fingerprint(match_id) == stored

    clock.advance(1)  # the deadline itself
    with commit() as queued:
        assert tasks.expire_turn(*expiry.args) is True
    assert moves(match_id) == [(0, Actor.TIMEOUT)]
    seat = seat0(match_id)
    assert (seat.timeouts_in_row, seat.away) == (1, False)
    assert queued == [bot_task(match_id, version(match_id))]  # seat 1's turn follows


def test_three_timeouts_in_a_row_make_the_seat_away_and_a_bot_plays_it_at_once(
    monkeypatch: pytest.MonkeyPatch, clock: FakeClock, commit: Commit, make_player: Any
) -> None:
    match_id, queued = against_bots(monkeypatch, commit, make_player(), dealer=3)

    for n in range(1, AWAY_AFTER + 1):
        queued = time_out(clock, commit, queued)
        seat = seat0(match_id)
        assert (seat.timeouts_in_row, seat.away) == (n, n == AWAY_AFTER)
        # Once away, seat 0's turns are bot turns too: stop when it is seat 0's turn.
        queued = run_bots(commit, queued, until_seat=0)

    # Seat 0 is away: its turn now enqueues the bot task, with the bots' grace deadline, not
    # a deadline task for the player.
    assert Match.objects.get(pk=match_id).to_act == 0
    assert queued == [bot_task(match_id, version(match_id))]
    assert deadline(match_id) == clock.after(BOT_GRACE_SECONDS)
    with commit() as queued:
        assert tasks.play_bot_turn(match_id, version(match_id)) is True  # no waiting
    assert moves(match_id)[-1] == (0, Actor.BOT)
    assert [actor for seat, actor in moves(match_id) if seat == 0].count(Actor.TIMEOUT) == 3
    seat = seat0(match_id)
    assert seat.user_id is not None and not seat.bot  # still the player's seat


def test_a_move_of_the_player_between_timeouts_starts_the_count_again(
    monkeypatch: pytest.MonkeyPatch, clock: FakeClock, commit: Commit, make_player: Any
) -> None:
    human = make_player()
    match_id, queued = against_bots(monkeypatch, commit, human, dealer=3)

    for _ in range(AWAY_AFTER - 1):
        queued = run_bots(commit, time_out(clock, commit, queued))
    with commit() as queued:
        move_in_time(human, match_id)
    assert (seat0(match_id).timeouts_in_row, seat0(match_id).away) == (0, False)

    queued = run_bots(commit, queued)
    queued = time_out(clock, commit, queued)
    assert (seat0(match_id).timeouts_in_row, seat0(match_id).away) == (1, False)


def _gone_away(
    monkeypatch: pytest.MonkeyPatch, clock: FakeClock, commit: Commit, human: Player
) -> tuple[int, Queued]:
    """A match where seat 0 has gone away and it is seat 0's turn again, its bot task
    enqueued but not yet run."""
    match_id, queued = against_bots(monkeypatch, commit, human, dealer=3)
    for _ in range(AWAY_AFTER):
        queued = run_bots(commit, time_out(clock, commit, queued), until_seat=0)
    assert seat0(match_id).away and Match.objects.get(pk=match_id).to_act == 0
    (task,) = queued
    assert task == bot_task(match_id, version(match_id))
    return match_id, task


def test_the_players_own_move_takes_the_away_seat_back(
    monkeypatch: pytest.MonkeyPatch, clock: FakeClock, commit: Commit, make_player: Any
) -> None:
    human = make_player()
    match_id, bot = _gone_away(monkeypatch, clock, commit, human)

    with commit() as queued:
        move_in_time(human, match_id)  # before the bot task runs
    seat = seat0(match_id)
    assert (seat.away, seat.timeouts_in_row) == (False, 0)
    assert moves(match_id)[-1] == (0, Actor.HUMAN)
    assert queued == [bot_task(match_id, version(match_id))]  # seat 1 next
    assert tasks.play_bot_turn(*bot.args) is False  # the away seat's bot task is stale

    # Next time round it is the player's turn again, with a deadline.
    queued = run_bots(commit, queued)
    assert Match.objects.get(pk=match_id).to_act == 0
    assert queued == [deadline_task(match_id, version(match_id), clock.after(60))]


def test_back_returns_the_seat_with_a_fresh_deadline_on_the_players_turn(
    monkeypatch: pytest.MonkeyPatch, clock: FakeClock, commit: Commit, make_player: Any
) -> None:
    human = make_player()
    match_id, bot = _gone_away(monkeypatch, clock, commit, human)
    clock.advance(2)  # the grace deadline of the bot's turn is nearly over; the player's is not
    count = len(moves(match_id))

    with commit() as queued:
        response = human.client.post(f"/api/v1/matches/{match_id}/back")
        assert response.status_code == 200, response.content
    seat = seat0(match_id)
    assert (seat.away, seat.timeouts_in_row) == (False, 0)
    assert len(moves(match_id)) == count  # coming back is not a move
    assert queued == [deadline_task(match_id, version(match_id), clock.after(60))]
    assert deadline(match_id) == clock.after(60)
    assert tasks.play_bot_turn(*bot.args) is False

    # Coming back when already back changes nothing and enqueues nothing.
    stored = fingerprint(match_id)
    with commit() as queued:
        assert human.client.post(f"/api/v1/matches/{match_id}/back").status_code == 200
    assert queued == [] and fingerprint(match_id) == stored


# --- The sweep ----------------------------------------------------------------------------------


@pytest.fixture
def turns(
    monkeypatch: pytest.MonkeyPatch, clock: FakeClock, commit: Commit, make_player: Any
) -> dict[str, int]:
    """Matches whose tasks were all lost (none is run), started at the same instant:
    ``human`` waits on a human for 60 s, ``bot`` on a bot (grace deadline), ``slow`` on a
    human for an hour, and ``finished`` was resigned."""
    human, _ = against_bots(monkeypatch, commit, make_player(), dealer=3)
    bot, _ = against_bots(monkeypatch, commit, make_player(), dealer=0)
    slow, _ = against_bots(monkeypatch, commit, make_player(), dealer=3, turn_seconds=3600)
    resigner = make_player()
    finished, _ = against_bots(monkeypatch, commit, resigner, dealer=3)
    assert resigner.client.post(f"/api/v1/matches/{finished}/resign").status_code == 200
    return {"human": human, "bot": bot, "slow": slow, "finished": finished}


def test_the_sweep_settles_exactly_the_due_turns(
    clock: FakeClock, commit: Commit, turns: dict[str, int]
) -> None:
    # A finished match holds no deadline; give it a past one anyway, as a row left behind
    # would have, to show the sweep still leaves it alone (the services check the status).
    Match.objects.filter(pk=turns["finished"]).update(deadline=clock.after(-1))
    before = {name: fingerprint(match_id) for name, match_id in turns.items()}
    versions = {name: version(match_id) for name, match_id in turns.items()}

    clock.advance(BOT_GRACE_SECONDS - 1)  # nothing is due yet
    with commit() as queued:
        assert tasks.sweep_deadlines() == 0
    assert queued == []
    assert {name: fingerprint(match_id) for name, match_id in turns.items()} == before

    clock.advance(60)  # the bot's grace and the human's 60 s have passed; the hour has not
    with commit() as queued:
        assert tasks.sweep_deadlines() == 2
    assert moves(turns["human"]) == [(0, Actor.TIMEOUT)]
    assert moves(turns["bot"]) == [(1, Actor.BOT)]
    for name in ("slow", "finished"):
        assert fingerprint(turns[name]) == before[name], name
    # Each settled turn enqueued its follow-up (both are bot turns now), oldest deadline first.
    assert queued == [
        bot_task(turns["bot"], versions["bot"] + 1),
        bot_task(turns["human"], versions["human"] + 1),
    ]
    assert Heartbeat.objects.get(name=tasks.SWEEP_HEARTBEAT).at == clock.at

    # A second sweep at the same instant finds the new bot turns not yet due.
    with commit() as queued:
        assert tasks.sweep_deadlines() == 0
    assert queued == []


@pytest.mark.parametrize(
    ("name", "task", "actor", "seat"),
    [("human", tasks.expire_turn, Actor.TIMEOUT, 0), ("bot", tasks.play_bot_turn, Actor.BOT, 1)],
)
def test_the_sweep_leaves_a_turn_settled_meanwhile(
    monkeypatch: pytest.MonkeyPatch,
    clock: FakeClock,
    commit: Commit,
    turns: dict[str, int],
    name: str,
    task: Any,
    actor: str,
    seat: int,
) -> None:
    """The sweep reads the due turns first and settles them one by one; a turn's own task
    (delivered late, or retried) may settle it in between. The sweep must then play nothing."""
    match_id = turns[name]
    seen = version(match_id)
    real = services.bot_turn_play
    raced: list[int] = []

    def task_gets_there_first(*, match_id: int, expected_version: int) -> bool:
        if match_id == turns[name] and not raced:
            raced.append(match_id)  # once: the task below comes back through here
            assert task(match_id, expected_version) is True
        return real(match_id=match_id, expected_version=expected_version)

    monkeypatch.setattr(services, "bot_turn_play", task_gets_there_first)
    clock.advance(61)
    with commit():
        settled = tasks.sweep_deadlines()
    assert settled == 1  # only the other due match
    assert moves(match_id) == [(seat, actor)]  # one move, by the task, none by the sweep
    assert version(match_id) == seen + 1
    assert raced == [match_id]


def test_a_broker_that_refuses_the_task_fails_nothing_and_the_sweep_plays_the_turn(
    monkeypatch: pytest.MonkeyPatch, clock: FakeClock, commit: Commit, make_player: Any
) -> None:
    def broker_down(*args: Any, **kwargs: Any) -> None:
        raise ConnectionError("broker unreachable")

    monkeypatch.setattr(tasks.play_bot_turn, "apply_async", broker_down)
    match_id, queued = against_bots(monkeypatch, commit, make_player(), dealer=0)

    # The match started (the commit stands) though its bot task could not be sent...
    assert queued == [] and moves(match_id) == []
    assert Match.objects.get(pk=match_id).to_act == 1
    # ...and once the bot's grace deadline passes, the sweep plays the turn.
    clock.advance(BOT_GRACE_SECONDS)
    with commit():
        assert tasks.sweep_deadlines() == 1
    assert moves(match_id) == [(1, Actor.BOT)]
