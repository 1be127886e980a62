"""Creating, joining, leaving and resigning a match."""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Sequence

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games import engine
from games.errors import AlreadySeated, MatchFull, MatchNotFound, MatchNotWaiting, SeatTaken
from games.models import EndReason, Match, MatchStatus, Seat, Visibility
from games.services.access import (
    match_lock,
    require_active,
    require_in_good_standing,
    require_seat,
    seat_of,
)
from games.services.state import match_finish, match_start, version_bump


@transaction.atomic
def match_create(
    *,
    creator: User,
    ruleset: str = engine.GAMERULES.name,
    target: int | None = None,
    turn_seconds: int | None = None,
    visibility: str = Visibility.PRIVATE,
    bots: dict[int, str] | None = None,
) -> Match:
    """Create a match with the creator in seat 0 and bots where asked; four filled seats
    start it at once."""
    require_in_good_standing(creator)
    rules = engine.get_ruleset(ruleset)
    bots = bots or {}
    match = Match.objects.create(
        ruleset=rules.name,
        rules_version=rules.version,
        target=target or rules.default_target,
        turn_seconds=turn_seconds or settings.BALOOT["DEFAULT_TURN_SECONDS"],
        visibility=visibility,
        invite_code=secrets.token_urlsafe(6) if visibility == Visibility.PRIVATE else "",
        created_by=creator,
    )
    Seat.objects.bulk_create(
        [Seat(match=match, index=0, user=creator)]
        + [Seat(match=match, index=i, bot=bots.get(i, "")) for i in (1, 2, 3)]
    )
    if all(bots.get(i) for i in (1, 2, 3)):
        match_start(match)
    return match


@transaction.atomic
def match_create_table(
    *,
    seats: Sequence[User | str],
    ruleset: str = engine.GAMERULES.name,
    turn_seconds: int | None = None,
    visibility: str = Visibility.PRIVATE,
) -> Match:
    """A full table, started at once: ``seats[i]`` sits in seat i, a user or a bot level.

    For callers that choose the four players themselves (quick play). The first user is the
    creator; every user must be in good standing and appear once; at least one is human.
    """
    users = [s for s in seats if isinstance(s, User)]
    if len(seats) != 4 or not users or len({u.pk for u in users}) != len(users):
        raise ValueError("a table is four seats, at least one human, none twice")
    for user in users:
        require_in_good_standing(user)
    rules = engine.get_ruleset(ruleset)
    match = Match.objects.create(
        ruleset=rules.name,
        rules_version=rules.version,
        target=rules.default_target,
        turn_seconds=turn_seconds or settings.BALOOT["DEFAULT_TURN_SECONDS"],
        visibility=visibility,
        invite_code=secrets.token_urlsafe(6) if visibility == Visibility.PRIVATE else "",
        created_by=users[0],
    )
    Seat.objects.bulk_create(
        [
            Seat(match=match, index=i, user=s)
            if isinstance(s, User)
            else Seat(match=match, index=i, bot=s)
            for i, s in enumerate(seats)
        ]
    )
    match_start(match)
    return match


@transaction.atomic
def match_join(
    *, match_id: int, user: User, seat: int | None = None, code: str | None = None
) -> Match:
    require_in_good_standing(user)
    match = match_lock(match_id)
    if (
        match.visibility == Visibility.PRIVATE
        # A wrong invite code is the same 404 as no match at all: nothing is revealed.
        and not hmac.compare_digest((code or "").encode(), match.invite_code.encode())
        and seat_of(match, user) is None
    ):
        raise MatchNotFound()
    if match.status != MatchStatus.WAITING:
        raise MatchNotWaiting()
    if seat_of(match, user) is not None:
        raise AlreadySeated()
    seats = match.seat_list()
    if seat is None:
        free = next((s for s in seats if s.is_empty), None)
        if free is None:
            raise MatchFull()
    else:
        free = next(s for s in seats if s.index == seat)
        if not free.is_empty:
            raise SeatTaken()
    free.user = user
    free.save(update_fields=["user"])
    if all(not s.is_empty for s in seats):
        match_start(match)
    else:
        version_bump(match)
    return match


@transaction.atomic
def match_leave(*, match_id: int, user: User) -> Match:
    """Give up a seat before the match starts; the last human leaving aborts the match."""
    match = match_lock(match_id)
    seat = require_seat(match, user)
    if match.status != MatchStatus.WAITING:
        raise MatchNotWaiting("Only a waiting match can be left; resign a started one.")
    seat.user = None
    seat.save(update_fields=["user"])
    if all(s.user_id is None for s in match.seat_list()):
        match.status = MatchStatus.ABORTED
        match.finished_at = timezone.now()
    version_bump(match)
    return match


@transaction.atomic
def match_resign(*, match_id: int, user: User) -> Match:
    match = match_lock(match_id)
    seat = require_seat(match, user)
    require_active(match)
    match_finish(match, winner_team=1 - seat.team, reason=EndReason.RESIGNED)
    return match
