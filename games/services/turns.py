"""Turns nobody is at the screen for: bot seats, away seats and expired deadlines.

Called by the Celery tasks (``games.tasks``) and the deadline sweep; every function re-reads
the match and changes nothing if it moved on, so a duplicate or late task is harmless.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.utils.crypto import salted_hmac

from core import clock, events
from games import engine
from games.events import SeatHandedToBot
from games.models import Actor, Heartbeat, Match, MatchStatus, Seat
from games.selectors.seats import is_automatic
from games.services.moves import move_apply

AWAY_BOT_LEVEL = "easy"  # plays for a seat that went away (api.md "Away seats")
TIMEOUT_BOT_LEVEL = "easy"  # picks the move for an expired turn (issue: "the easy bot")


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


def automatic_move_decide(
    *, match_id: int, expected_version: int, timeout: bool
) -> AutomaticMove | None:
    """Decide, without a transaction or a lock, the move for the turn at ``expected_version``:
    a bot (or away) seat's move, or with ``timeout`` the move for a human turn whose deadline
    has passed. None when there is nothing to decide."""
    match = Match.objects.filter(pk=match_id).first()
    seat = _turn_at(match, expected_version)
    if match is None or seat is None:
        return None
    if timeout:
        if not _is_expired(match, seat):
            return None
        level = TIMEOUT_BOT_LEVEL
    else:
        if not is_automatic(seat):
            return None
        level = seat.bot or AWAY_BOT_LEVEL
    state = match.load_state()
    assert state is not None
    return AutomaticMove(seat.index, _automatic_move(match, state, seat.index, level))


def bot_turn_play(*, match_id: int, expected_version: int) -> bool:
    """Play the bot (or away) seat whose turn it was at ``expected_version``.

    Returns False, changing nothing, when the match has moved on: the task was a duplicate,
    or the sweep or a human got there first.
    """
    decided = automatic_move_decide(
        match_id=match_id, expected_version=expected_version, timeout=False
    )
    return decided is not None and _bot_move_commit(match_id, expected_version, decided)


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
