"""A rematch: the same table again after a finished match, once every human has accepted.

Who may sit again is checked under the finished match's lock, on every accept and at the start.
A table that lost a human (their account deleted, or they were suspended or banned) cannot sit
again: a pending proposal is cancelled at once (``RematchCancelled``: the table's other humans
hear of it on ``/ws/v1/me``), and none is made (``rematch_unavailable``). The cancellation
happens where the loss happens: moderation calls ``rematches_cancel_for`` when it suspends or
bans, the players app's deletion listener when an account is deleted; the checks here catch
the rest (a sanction written some other way, a race with an accept). Blocks hold too: a player
who blocks, or is blocked by, another human of the table cannot propose or accept
(``user_blocked``, not saying who blocked whom), and a block made after both had accepted
calls the proposal off at the start.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from core import clock, events
from games import services as games
from games.errors import MatchNotFinished
from games.models import Match, MatchStatus
from players.errors import (
    RematchCancelled,
    RematchExpired,
    RematchStarted,
    RematchUnavailable,
    UserBlocked,
)
from players.events import RematchCancelled as RematchCancelledEvent
from players.models import Rematch
from players.selectors.blocks import blocked_pairs
from players.selectors.social import REMATCH_SECONDS, human_seats, rematch_cancelled

__all__ = ["REMATCH_SECONDS", "rematch_accept", "rematches_cancel_for"]


def rematch_accept(*, user: User, match_id: int) -> tuple[Rematch, bool]:
    """Propose a rematch of a finished match (the first call) or accept the proposal (the
    others); accepting twice changes nothing. The last human to accept starts the new match:
    same users in the same seats, bots of the same levels, same options, the first dealer
    rotated by one. Returns the proposal and whether this call made it.

    An accept that finds the table has lost a player cancels the proposal and answers
    ``rematch_cancelled`` once that has committed (so call this outside a transaction)."""
    rematch, created, cancelled = _accept(user=user, match_id=match_id)
    if cancelled:
        raise RematchCancelled()
    return rematch, created


@transaction.atomic
def _accept(*, user: User, match_id: int) -> tuple[Rematch, bool, bool]:
    """The accept under the finished match's row lock: two players accepting at once serialise
    and the table starts exactly once (the one-to-one ``new_match`` is the last guard); a ban
    or deletion racing it either cancels first or finds the rematch started."""
    games.require_in_good_standing(user)
    match = games.match_lock(match_id)
    seat = games.require_seat(match, user)
    if match.status != MatchStatus.FINISHED:
        raise MatchNotFinished(_("Only a finished match can be played again."))
    games.require_seatable(user)  # read fresh, under the lock
    now = clock.now()
    rematch = Rematch.objects.filter(match=match).first()
    if rematch is not None:
        if rematch.new_match_id is not None:
            raise RematchStarted()
        if rematch_cancelled(rematch):
            raise RematchCancelled()
        if now >= rematch.expires_at:
            raise RematchExpired()
    humans = _human_ids(match)
    if games.barred_from_seats(humans):
        if rematch is None:
            raise RematchUnavailable()
        _cancel(rematch, match, now)
        return rematch, False, True
    if any(user.pk in pair for pair in blocked_pairs(humans)):
        raise UserBlocked()
    created = rematch is None
    if rematch is None:
        rematch = Rematch.objects.create(
            match=match,
            proposed_by=user,
            accepted_seats=[seat.index],
            created_at=now,
            expires_at=now + timedelta(seconds=REMATCH_SECONDS),
        )
    elif seat.index not in rematch.accepted_seats:
        rematch.accepted_seats = [*rematch.accepted_seats, seat.index]
        rematch.save(update_fields=["accepted_seats"])
    if set(human_seats(match)) <= set(rematch.accepted_seats):
        if blocked_pairs(humans):
            # Two who had both accepted block each other now: this table cannot sit again.
            _cancel(rematch, match, now)
            return rematch, created, True
        new = games.match_create_again(source=match, creator=rematch.proposed_by)
        rematch.new_match = new
        rematch.save(update_fields=["new_match"])
    return rematch, created, False


def rematches_cancel_for(*, user_id: int) -> list[int]:
    """Cancel the pending rematch proposals of the finished matches ``user_id`` sat in, because
    they can no longer play (suspended, banned, account deleted); the ids of those matches.
    Runs inside the caller's transaction (the sanction's, the deletion's), after the change
    that bars the player, and locks each match in id order, as every multi-match writer must."""
    now = clock.now()
    match_ids = (
        Rematch.objects.filter(
            new_match__isnull=True, expires_at__gt=now, match__seats__user_id=user_id
        )
        .order_by("match_id")
        .values_list("match_id", flat=True)
        .distinct()
    )
    cancelled = []
    for match_id in list(match_ids):
        match = games.match_lock(match_id)
        rematch = Rematch.objects.get(match=match)
        if rematch.new_match_id is not None or now >= rematch.expires_at:
            continue  # started or ended while this waited for the lock
        _cancel(rematch, match, now)
        cancelled.append(match_id)
    return cancelled


def _human_ids(match: Match) -> list[int]:
    return [s.user_id for s in match.seat_list() if s.user_id is not None]


def _cancel(rematch: Rematch, match: Match, now: datetime) -> None:
    """End the proposal now and tell the table's humans who can still play (not who could
    not, nor why). The caller holds the match's lock."""
    rematch.expires_at = rematch.cancelled_at = now
    rematch.save(update_fields=["expires_at", "cancelled_at"])
    told = _still_playing(_human_ids(match))
    events.emit(
        RematchCancelledEvent(match_id=match.pk, version=match.version, user_ids=tuple(told))
    )


def _still_playing(user_ids: Iterable[int]) -> list[int]:
    ids = sorted(set(user_ids))
    barred = games.barred_from_seats(ids)
    return [u for u in ids if u not in barred]
