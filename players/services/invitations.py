"""Inviting a player by username to a waiting match, and their answer.

Each invitation is a push to someone, so they are bounded (settings ``INVITATIONS``): an
inviter sends at most ``PER_HOUR`` in any hour (``429 invitation_rate_limited`` with
``Retry-After``), a table has no more open invitations than free seats
(``table_invitations_full``), and a player holds at most ``OPEN_PER_INVITEE`` open invitations
at once (``invitee_invitations_full``).

Blocks hold whoever invites: an invitee who blocks, or is blocked by, the inviter, a player
seated at the table or one already invited to it is refused (``user_blocked``, not saying who
blocked whom), and the accept checks the table again, since seats change in between (the join's
``PlayerSeated`` listener, ``players.services.blocks``).
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from core import clock, events
from games import services as games
from games.errors import MatchFull, MatchNotWaiting
from games.models import Match, MatchStatus
from players.errors import (
    AlreadyInvited,
    CannotInviteSelf,
    InvitationNotFound,
    InvitationNotPending,
    InvitationRateLimited,
    InviteeInvitationsFull,
    InviteeSeated,
    TableInvitationsFull,
    UserBlocked,
)
from players.events import InvitationSent
from players.models import Invitation, InvitationStatus
from players.selectors.blocks import blocked_pairs
from players.selectors.social import user_by_username

# The window of the per-inviter limit.
HOUR = timedelta(hours=1)


@transaction.atomic
def invitation_create(*, inviter: User, match_id: int, username: str) -> Invitation:
    """A human seated at a waiting match with a free seat invites ``username``.

    The inviter's and the invitee's rows are locked (in id order, before the match, as the
    sanction and deletion paths lock a user before matches), so one inviter's invitations and
    one invitee's open ones are counted without a race; the match row is locked, so the free
    seats, the table's open invitations and who sits there cannot change meanwhile.
    """
    games.require_in_good_standing(inviter)
    invitee = user_by_username(username)
    list(User.objects.select_for_update().filter(pk__in={inviter.pk, invitee.pk}).order_by("pk"))
    match = games.match_lock(match_id)
    games.require_seat(match, inviter)  # a private match is 404 to outsiders
    if match.status != MatchStatus.WAITING:
        raise MatchNotWaiting()
    free_seats = sum(s.is_empty for s in match.seat_list())
    if not free_seats:
        raise MatchFull()
    if invitee.pk == inviter.pk:
        raise CannotInviteSelf()
    if games.seat_of(match, invitee) is not None:
        raise InviteeSeated()
    pending = Invitation.objects.filter(match=match, status=InvitationStatus.PENDING)
    if pending.filter(invitee=invitee).exists():
        raise AlreadyInvited()
    # Whoever invites, the invitee must not meet anyone they block or are blocked by: the
    # inviter, the seated, and those invited already (who may take a seat before them).
    table = {
        inviter.pk,
        *(s.user_id for s in match.seat_list() if s.user_id is not None),
        *pending.values_list("invitee_id", flat=True),
    }
    if any(invitee.pk in pair for pair in blocked_pairs(table | {invitee.pk})):
        raise UserBlocked()
    now = clock.now()
    _require_within_limits(inviter=inviter, invitee=invitee, match=match, now=now)
    if pending.count() >= free_seats:
        raise TableInvitationsFull()
    invitation = Invitation.objects.create(match=match, inviter=inviter, invitee=invitee)
    # ``created_at`` is filled with the wall clock on insert; the hourly window reads the
    # injected clock (core.clock), so the row carries that one.
    invitation.created_at = now
    invitation.save(update_fields=["created_at"])
    events.emit(
        InvitationSent(
            invitation_id=invitation.pk,
            match_id=match.pk,
            version=match.version,
            invitee_id=invitee.pk,
        )
    )
    return invitation


def _require_within_limits(*, inviter: User, invitee: User, match: Match, now: datetime) -> None:
    """The inviter's hourly budget and the invitee's open invitations (callers hold both
    users' row locks)."""
    limits = settings.INVITATIONS
    recent = list(
        Invitation.objects.filter(inviter=inviter, created_at__gt=now - HOUR)
        .order_by("-created_at")
        .values_list("created_at", flat=True)[: limits["PER_HOUR"]]
    )
    if len(recent) >= limits["PER_HOUR"]:
        # The oldest of the last PER_HOUR leaving the window frees one.
        wait = (recent[-1] + HOUR - now).total_seconds()
        raise InvitationRateLimited(retry_after=max(1, math.ceil(wait)))
    # Open: pending, to a table that still waits for players (as GET /me/invitations lists).
    held = Invitation.objects.filter(
        invitee=invitee, status=InvitationStatus.PENDING, match__status=MatchStatus.WAITING
    ).count()
    if held >= limits["OPEN_PER_INVITEE"]:
        raise InviteeInvitationsFull()


def _addressed_to(user: User, invitation_id: int) -> Invitation:
    """The invitation, if it is ``user``'s; anyone else's is not revealed."""
    invitation = Invitation.objects.filter(pk=invitation_id, invitee=user).first()
    if invitation is None:
        raise InvitationNotFound()
    return invitation


def _pending_locked(invitation_id: int) -> Invitation:
    invitation = Invitation.objects.select_for_update().get(pk=invitation_id)
    if invitation.status != InvitationStatus.PENDING:
        raise InvitationNotPending()
    return invitation


@transaction.atomic
def invitation_accept(*, user: User, invitation_id: int) -> Match:
    """Seat the invitee in the first free seat; a private match's code is not needed. The
    match is locked before the invitation (the order every invitation write takes)."""
    found = _addressed_to(user, invitation_id)
    match = games.match_lock(found.match_id)
    invitation = _pending_locked(invitation_id)
    if match.status == MatchStatus.ACTIVE:
        # Every seat was taken meanwhile (a waiting table starts when its fourth seat fills).
        raise MatchFull(_("The table filled up and the match started without you."))
    if match.status != MatchStatus.WAITING:
        raise MatchNotWaiting()
    # The invitation stands in for the invite code. match_join raises match_full and
    # already_seated as for any join; under the lock it refuses an invitee who may not sit
    # (deleted, suspended, banned: ``require_seatable``) and, through its ``PlayerSeated`` event,
    # one who blocks or is blocked by someone seated now (``user_blocked``).
    match = games.match_join(match_id=match.pk, user=user, code=match.invite_code)
    invitation.status = InvitationStatus.ACCEPTED
    invitation.responded_at = clock.now()
    invitation.save(update_fields=["status", "responded_at"])
    return match


@transaction.atomic
def invitation_decline(*, user: User, invitation_id: int) -> Invitation:
    found = _addressed_to(user, invitation_id)
    games.match_lock(found.match_id)
    invitation = _pending_locked(invitation_id)
    invitation.status = InvitationStatus.DECLINED
    invitation.responded_at = clock.now()
    invitation.save(update_fields=["status", "responded_at"])
    return invitation
