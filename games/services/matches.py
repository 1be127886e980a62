"""Creating, joining, leaving and resigning a match."""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Sequence

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from core import events
from games import engine
from games.errors import (
    AlreadySeated,
    MatchFull,
    MatchNotFound,
    MatchNotWaiting,
    SeatNotBot,
    SeatTaken,
)
from games.events import PlayerSeated
from games.models import EndReason, Match, MatchStatus, Seat, Visibility
from games.services.access import (
    match_lock,
    require_active,
    require_in_good_standing,
    require_seat,
    require_seatable,
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
    rated: bool = False,
) -> Match:
    """Create a match with the creator in seat 0 and bots where asked; four filled seats
    start it at once. A table is casual unless ``rated`` (it is still unrated if it starts
    with a bot: ``games.selectors.rated``)."""
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
        rated=rated,
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
    rated: bool = True,
    target: int | None = None,
) -> Match:
    """A full table, started at once: ``seats[i]`` sits in seat i, a user or a bot level.

    For callers that choose the four players themselves (quick play, tournaments). The first
    user is the creator; every user must be in good standing and appear once; at least one is
    human.
    Rated unless told otherwise: quick play is (subject to ``games.selectors.rated``).
    """
    users = [s for s in seats if isinstance(s, User)]
    if len(seats) != 4 or not users or len({u.pk for u in users}) != len(users):
        raise ValueError("a table is four seats, at least one human, none twice")
    for user in users:
        require_seatable(user)  # read fresh: the users were loaded before any lock
    rules = engine.get_ruleset(ruleset)
    match = Match.objects.create(
        ruleset=rules.name,
        rules_version=rules.version,
        target=target or rules.default_target,
        turn_seconds=turn_seconds or settings.BALOOT["DEFAULT_TURN_SECONDS"],
        visibility=visibility,
        invite_code=secrets.token_urlsafe(6) if visibility == Visibility.PRIVATE else "",
        rated=rated,
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
    # Again under the lock, read fresh: a ban or a deletion that committed while this join
    # waited for the lock keeps the player out (the check above trusts the request's token).
    require_seatable(user)
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
    # The apps above may refuse the newcomer (players: a block with someone seated here).
    events.emit(PlayerSeated(match_id=match.pk, seat=free.index, user_id=user.pk))
    if all(not s.is_empty for s in seats):
        match_start(match)
    else:
        version_bump(match)
    return match


@transaction.atomic
def match_leave(*, match_id: int, user: User) -> Match:
    """Give up a seat before the match starts. A creator who leaves hands the table to the
    next human (by seat order); only the last human leaving aborts the match."""
    match = match_lock(match_id)
    seat = require_seat(match, user)
    if match.status != MatchStatus.WAITING:
        raise MatchNotWaiting(_("Only a waiting match can be left; resign a started one."))
    seat.user = None
    seat.save(update_fields=["user"])
    humans = [s for s in match.seat_list() if s.user_id is not None]
    if not humans:
        match.status = MatchStatus.ABORTED
        match.finished_at = timezone.now()
    elif match.created_by_id == user.pk:
        host = humans[0].user
        assert host is not None
        match.created_by = host
    version_bump(match)
    return match


def _waiting_table_seat(match_id: int, user: User, seat: int) -> tuple[Match, Seat]:
    """The locked waiting match and ``seat`` of it, for a human seated there."""
    require_in_good_standing(user)
    match = match_lock(match_id)
    require_seat(match, user)
    if match.status != MatchStatus.WAITING:
        raise MatchNotWaiting()
    return match, match.seat_at(seat)


@transaction.atomic
def match_bot_add(*, match_id: int, user: User, seat: int, level: str) -> Match:
    """A seated human puts a bot of ``level`` in an empty seat of a waiting match; the fourth
    filled seat starts it, as a join does."""
    match, target = _waiting_table_seat(match_id, user, seat)
    if not target.is_empty:
        raise SeatTaken()
    target.bot = level
    target.save(update_fields=["bot"])
    if all(not s.is_empty for s in match.seat_list()):
        match_start(match)
    else:
        version_bump(match)
    return match


@transaction.atomic
def match_bot_remove(*, match_id: int, user: User, seat: int) -> Match:
    """A seated human takes the bot out of ``seat`` of a waiting match (the seat is free)."""
    match, target = _waiting_table_seat(match_id, user, seat)
    if not target.bot:
        raise SeatNotBot()
    target.bot = ""
    target.save(update_fields=["bot"])
    version_bump(match)
    return match


def match_create_again(*, source: Match, creator: User) -> Match:
    """A new match at the same table as the finished ``source`` (a rematch): the same users in
    the same seats, bots of the same levels, the same ruleset, target, clock, visibility and
    rated flag (confirmed again at the start, like any table's), started at once with the first
    dealer rotated by one. The caller holds ``source``'s lock
    inside its transaction, and has checked who may sit (``require_seatable``: the last line
    of defence here refuses anyone who may not)."""
    for seat in source.seat_list():
        if seat.user is not None:
            require_seatable(seat.user)
    rules = engine.get_ruleset(source.ruleset)
    match = Match.objects.create(
        ruleset=rules.name,
        rules_version=rules.version,
        target=source.target,
        turn_seconds=source.turn_seconds,
        visibility=source.visibility,
        invite_code=secrets.token_urlsafe(6) if source.visibility == Visibility.PRIVATE else "",
        rated=source.rated,
        created_by=creator,
    )
    Seat.objects.bulk_create(
        [Seat(match=match, index=s.index, user_id=s.user_id, bot=s.bot) for s in source.seat_list()]
    )
    match_start(match, dealer=(source.first_dealer + 1) % 4)
    return match


@transaction.atomic
def match_resign(*, match_id: int, user: User) -> Match:
    match = match_lock(match_id)
    seat = require_seat(match, user)
    require_active(match)
    match_finish(match, winner_team=1 - seat.team, reason=EndReason.RESIGNED)
    return match
