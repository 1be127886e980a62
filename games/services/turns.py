"""Turns nobody is at the screen for: bot seats, away seats and expired deadlines.

Called by the Celery tasks (``games.tasks``) and the deadline sweep; every function re-reads
the match and changes nothing if it moved on, so a duplicate or late task is harmless.
"""

from __future__ import annotations

import contextlib
import random
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import DatabaseError, transaction
from django.utils.crypto import salted_hmac

from core import clock, events, metrics
from games import engine
from games.events import SeatHandedToBot, TurnTimedOut
from games.models import Actor, BotLevel, Heartbeat, Match, MatchStatus, Seat
from games.selectors.seats import is_automatic, playing_level
from games.services.moves import move_apply
from games.services.scheduling import (
    BOT_GRACE_SECONDS,
    FollowUp,
    bot_grace_seconds,
    schedule_on_commit,
)

TIMEOUT_BOT_LEVEL = BotLevel.EASY  # picks the move for an expired turn (issue: "the easy bot")


def decision_rng(match_id: int, version: int) -> random.Random:
    """The random source of one bot decision: the same for a replayed task (so a retry makes
    the same choice), keyed with the server's secret (so a client that knows the match id and
    version, both public, still cannot recompute it and narrow down the bot's hand)."""
    digest = salted_hmac("baloot.bot-decision", f"{match_id}:{version}", algorithm="sha256")
    return random.Random(int.from_bytes(digest.digest()[:8], "big"))


# A bot thinks (up to its time budget) outside any transaction: holding the match row lock, or
# on SQLite the database's only write lock, while it searches would stall every other write.
# So a turn is settled in two steps: read the match at the version the task was scheduled for
# and decide, with no lock held; then lock, and apply the decision only if the match is still
# at that version. Every change to a match bumps its version, so an unchanged version means the
# decision was made on exactly the state it is applied to.


@dataclass(frozen=True)
class AutomaticMove:
    seat: int
    move: engine.Move


def _automatic_move(match: Match, state: engine.GameState, seat: int, level: str) -> engine.Move:
    """A bot's choice for ``seat``, from that seat's observation only."""
    from games.engine.bots import HardConfig, NormalConfig, choose_move

    obs = engine.observation(state, seat)
    # Seeded per decision so a replayed task makes the same choice; the seed is keyed with a
    # server secret, so no client can recompute a bot's choices and narrow down its hand.
    rng = decision_rng(match.pk, match.version)
    with metrics.BOT_THINK.labels(level).time():
        return choose_move(
            level,
            obs,
            rng,
            normal_config=NormalConfig(budget=settings.BALOOT["BOT_TIME_BUDGET"]),
            hard_config=HardConfig(budget=settings.BALOOT["HARD_BOT_TIME_BUDGET"]),
            ruleset=state.ruleset,
        )


def _turn_at(match: Match | None, version: int) -> Seat | None:
    """The seat to act if ``match`` is active and still at ``version``, else None: a task for
    a deleted match, a duplicate, or a turn someone already played changes nothing."""
    if match is None or match.version != version or match.status != MatchStatus.ACTIVE:
        return None
    return match.seat_at(match.to_act) if match.to_act is not None else None


def _is_expired(match: Match, seat: Seat) -> bool:
    return not is_automatic(seat) and match.deadline is not None and match.deadline <= clock.now()


@dataclass(frozen=True)
class _Turn:
    """A turn to decide: the match as read (no lock), its seat to act and the bot level that
    decides for it."""

    match: Match
    seat: Seat
    level: str


def _turn_to_decide(match_id: int, expected_version: int, *, timeout: bool) -> _Turn | None:
    match = Match.objects.filter(pk=match_id).first()
    seat = _turn_at(match, expected_version)
    if match is None or seat is None:
        return None
    if timeout:
        return _Turn(match, seat, TIMEOUT_BOT_LEVEL) if _is_expired(match, seat) else None
    return _Turn(match, seat, playing_level(seat)) if is_automatic(seat) else None


def _decide(turn: _Turn) -> AutomaticMove:
    state = turn.match.load_state()
    assert state is not None
    return AutomaticMove(
        turn.seat.index, _automatic_move(turn.match, state, turn.seat.index, turn.level)
    )


def automatic_move_decide(
    *, match_id: int, expected_version: int, timeout: bool
) -> AutomaticMove | None:
    """Decide, without a transaction or a lock, the move for the turn at ``expected_version``:
    a bot (or away) seat's move, or with ``timeout`` the move for a human turn whose deadline
    has passed. None when there is nothing to decide."""
    turn = _turn_to_decide(match_id, expected_version, timeout=timeout)
    return None if turn is None else _decide(turn)


def bot_turn_play(*, match_id: int, expected_version: int) -> bool:
    """Play the bot (or away) seat whose turn it was at ``expected_version``: the default
    queue's bot task and the deadline sweep.

    A hard bot's turn is not thought here: a second of search would hold up every fast bot,
    deadline and sweep queued behind it. Once its deadline has passed (its own task lost) it
    is sent to the hard bots' queue again (``_hard_turn_hand_over``); either way False is
    returned, since nothing was played.

    Returns False, changing nothing, when the match has moved on: the task was a duplicate,
    or the sweep or a human got there first.
    """
    turn = _turn_to_decide(match_id, expected_version, timeout=False)
    if turn is None:
        return False
    if turn.level == BotLevel.HARD:
        _hard_turn_hand_over(turn.match)
        return False
    return _bot_move_commit(match_id, expected_version, _decide(turn))


def hard_bot_turn_play(*, match_id: int, expected_version: int) -> bool:
    """Play the turn at ``expected_version`` on the hard bots' queue: take the turn's lease,
    think (up to ``BALOOT["HARD_BOT_TIME_BUDGET"]``), then commit as any bot does.

    Returns False, changing nothing, when the match has moved on or another worker holds the
    lease: a second task for the same turn (the sweep sends one when a turn outlives its
    grace) never searches it again while the first is searching.
    """
    turn = _turn_to_decide(match_id, expected_version, timeout=False)
    lease = None if turn is None else _hard_lease_take(turn.match)
    if turn is None or lease is None:
        return False
    try:
        return _bot_move_commit(match_id, expected_version, _decide(turn))
    except BaseException:
        # Give the turn back, so the retry of a passing database error may think it again
        # rather than find its own lease and wait for the sweep.
        _hard_lease_release(turn.match, lease)
        raise


# A hard bot's turn and the sweep. The sweep finds a bot turn by its grace deadline and, for
# the fast bots, plays it inline; for a hard bot it must neither think inline (on the default
# queue) nor send a task every second while the first waits in a busy hard queue. Two writes
# keep that apart, both single conditional UPDATEs outside any long transaction:
# - the hand-over moves the deadline a grace ahead when it sends the task, so the next sweeps
#   leave the turn alone, and send it once more only if that task too is lost;
# - the worker that starts thinking takes a lease (``thinking_until``) and moves the deadline
#   to its end: no other task thinks the turn meanwhile (a duplicate finds the lease and does
#   nothing), the sweep waits for the think, and a worker killed mid-think leaves a deadline
#   that passes, so the sweep sends the turn again.
# The version bump that commits the move clears the lease (``state.version_bump``).


def _hard_lease_seconds() -> float:
    """The think, and the same slack after it as any bot turn gets."""
    return settings.BALOOT["HARD_BOT_TIME_BUDGET"] + BOT_GRACE_SECONDS


def _hard_lease_take(match: Match) -> datetime | None:
    """Hold ``match``'s turn at the version read, for one think: the lease's end, or None if
    the match moved on or another worker holds it."""
    now = clock.now()
    until = now + timedelta(seconds=_hard_lease_seconds())
    taken = (
        Match.objects.filter(pk=match.pk, version=match.version, status=MatchStatus.ACTIVE)
        .exclude(thinking_until__gt=now)
        .update(thinking_until=until, deadline=until)
    )
    return until if taken else None


def _hard_lease_release(match: Match, until: datetime) -> None:
    # Best effort, on the way out of a failure: if even this fails, the lease runs out and
    # the sweep sends the turn again.
    with contextlib.suppress(DatabaseError):
        Match.objects.filter(pk=match.pk, version=match.version, thinking_until=until).update(
            thinking_until=None
        )


def _hard_turn_hand_over(match: Match) -> None:
    """Send a hard bot's turn whose deadline has passed to its queue. Only a due turn is sent
    (the hard task sent at the commit has its grace to get there), and the deadline moves a
    grace ahead as it is sent, in one conditional update: of two sweeps that both read the turn
    as due, one sends it. A turn a worker is thinking on is never due (the lease moved its
    deadline to the lease's end)."""
    now = clock.now()
    grace = timedelta(seconds=bot_grace_seconds(FollowUp.HARD_BOT))
    with transaction.atomic():
        due = Match.objects.filter(pk=match.pk, version=match.version, deadline__lte=now)
        handed = due.update(deadline=now + grace)
        if handed:
            schedule_on_commit(match.pk, match.version, FollowUp.HARD_BOT, None)


def _lock_decided_turn(
    match_id: int, version: int, decided: AutomaticMove
) -> tuple[Match, Seat] | None:
    """The locked match and the seat to act, if the match is still at the version the
    decision was made for and it is still that seat's turn; else None."""
    match = Match.objects.select_for_update().filter(pk=match_id).first()
    seat = _turn_at(match, version)
    if match is None or seat is None or seat.index != decided.seat:
        return None
    return match, seat


@transaction.atomic
def _bot_move_commit(match_id: int, version: int, decided: AutomaticMove) -> bool:
    locked = _lock_decided_turn(match_id, version, decided)
    if locked is None or not is_automatic(locked[1]):
        return False
    match, seat = locked
    move_apply(match=match, seat=seat.index, move=decided.move, actor=Actor.BOT)
    return True


def turn_expire(*, match_id: int, expected_version: int) -> bool:
    """A human turn's deadline passed: play a legal move for the seat (actor ``timeout``),
    and after ``AWAY_AFTER_TIMEOUTS`` in a row hand the seat to a bot until the player moves.

    Returns False, changing nothing, if the turn was played or the deadline moved meanwhile.
    """
    decided = automatic_move_decide(
        match_id=match_id, expected_version=expected_version, timeout=True
    )
    return decided is not None and _timeout_move_commit(match_id, expected_version, decided)


@transaction.atomic
def _timeout_move_commit(match_id: int, version: int, decided: AutomaticMove) -> bool:
    locked = _lock_decided_turn(match_id, version, decided)
    if locked is None or not _is_expired(*locked):
        return False
    match, seat = locked
    seat.timeouts_in_row += 1
    went_away = not seat.away and seat.timeouts_in_row >= settings.BALOOT["AWAY_AFTER_TIMEOUTS"]
    seat.away = seat.away or went_away
    seat.save(update_fields=["timeouts_in_row", "away"])
    move_apply(match=match, seat=seat.index, move=decided.move, actor=Actor.TIMEOUT)
    if seat.user_id is not None:
        events.emit(
            TurnTimedOut(
                match_id=match.pk, version=match.version, seat=seat.index, user_id=seat.user_id
            )
        )
    if went_away:
        events.emit(
            SeatHandedToBot(
                match_id=match.pk,
                version=match.version,
                seat=seat.index,
                user_id=seat.user_id,
                reason="timeouts",
            )
        )
    return True


def heartbeat_record(*, name: str) -> None:
    """Note that a periodic job (the deadline sweep) has just completed; /healthz reads it."""
    # One UPDATE every sweep; the row is created only the first time.
    now = clock.now()
    if not Heartbeat.objects.filter(name=name).update(at=now):
        Heartbeat.objects.get_or_create(name=name, defaults={"at": now})
