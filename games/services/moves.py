"""Moves: the one function that runs a move through the engine and stores it, the player's
move on top of it, and handing seats back and forth between players and bots."""

from __future__ import annotations

from django.db import transaction

from accounts.models import User
from core import events
from games import engine
from games.errors import StaleVersion
from games.events import SeatHandedToBot
from games.models import Actor, Match, MatchStatus, Move, Seat
from games.services.access import match_lock_seated, require_active
from games.services.state import (
    match_finish,
    match_start,
    round_deal,
    rounds_close,
    state_store,
    version_bump,
)


def move_apply(*, match: Match, seat: int, move: engine.Move, actor: str) -> Match:
    """Apply one move to a locked, active match. Raises the engine's errors unchanged, having
    written nothing."""
    before = match.load_state()
    assert before is not None
    state = engine.apply(before, seat, move)  # IllegalMove / MalformedMove -> nothing written
    match.move_count += 1
    Move.objects.create(
        match=match,
        seq=match.move_count,
        version=match.version + 1,
        round_number=before.round_no,
        seat=seat,
        actor=actor,
        payload=engine.move_to_dict(move),
    )
    rounds_close(match, before, state)
    if state.phase is engine.Phase.DEAL:
        state = round_deal(match, state)
    result = engine.outcome(state)
    if result is not None:
        match.put_state(state)
        match_finish(match, winner_team=result.winner, reason=result.reason)
        return match
    state_store(match, state)
    return match


def move_make(
    *, match: Match, seat: Seat, move: engine.Move, expected_version: int | None
) -> Match:
    """A player's move on a match the caller locked (``match_lock_seated``) in its
    transaction; the caller keeps the lock until it has stored what it answers (the API's
    idempotency record), so a racing retry waits and then sees that answer."""
    require_active(match)
    if expected_version is not None and expected_version != match.version:
        raise StaleVersion(current_version=match.version)
    # The player is back: their own move takes the seat back from the bot (api.md). A refused
    # move rolls this back with everything else.
    seat_reclaim(seat)
    return move_apply(match=match, seat=seat.index, move=move, actor=Actor.HUMAN)


@transaction.atomic
def seat_come_back(*, match_id: int, user: User) -> Match:
    """An away player takes their seat back from the bot (api.md "Away seats").

    While a seat is away its turns are played at once, so a player could rarely beat the bot
    to a move; this lets them return first. If it is their turn they get a fresh deadline.
    """
    match, seat = match_lock_seated(match_id=match_id, user=user)
    require_active(match)
    if not seat_reclaim(seat):
        return match
    state = match.load_state()
    assert state is not None
    state_store(match, state)
    return match


def seat_reclaim(seat: Seat) -> bool:
    """Clear the away flag and the timeout streak; True if there was anything to clear."""
    if not seat.away and not seat.timeouts_in_row:
        return False
    seat.away = False
    seat.timeouts_in_row = 0
    seat.save(update_fields=["away", "timeouts_in_row"])
    return True


def seat_replace_with_bot(*, match: Match, seat_index: int, level: str) -> Seat:
    """Hand a seat of a locked match to a bot for good (moderation; an all-bot table)."""
    seat = match.seat_at(seat_index)
    user_id = seat.user_id
    seat.user = None
    seat.bot = level
    seat.away = False
    seat.timeouts_in_row = 0
    seat.save(update_fields=["user", "bot", "away", "timeouts_in_row"])
    if match.status == MatchStatus.ACTIVE:
        state = match.load_state()
        assert state is not None
        state_store(match, state)
    elif match.status == MatchStatus.WAITING and all(not s.is_empty for s in match.seat_list()):
        match_start(match)
    else:
        version_bump(match)
    if user_id is not None:
        events.emit(
            SeatHandedToBot(
                match_id=match.pk,
                version=match.version,
                seat=seat_index,
                user_id=user_id,
                reason="staff",
            )
        )
    return seat
