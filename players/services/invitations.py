"""Inviting a player by username to a waiting match, and their answer."""

from __future__ import annotations

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
    InviteeSeated,
    UserBlocked,
)
from players.events import InvitationSent
from players.models import Invitation, InvitationStatus
from players.selectors.blocks import is_blocked_either_way
from players.selectors.social import user_by_username


@transaction.atomic
def invitation_create(*, inviter: User, match_id: int, username: str) -> Invitation:
    """A human seated at a waiting match with a free seat invites ``username``.

    The match row is locked, so the free seat, the invitee's absence from the table and the
    one open invitation per invitee are checked against a table that cannot change meanwhile.
    """
    games.require_in_good_standing(inviter)
    match = games.match_lock(match_id)
    games.require_seat(match, inviter)  # a private match is 404 to outsiders
    if match.status != MatchStatus.WAITING:
        raise MatchNotWaiting()
    if not any(s.is_empty for s in match.seat_list()):
        raise MatchFull()
    invitee = user_by_username(username)
    if invitee.pk == inviter.pk:
        raise CannotInviteSelf()
    if games.seat_of(match, invitee) is not None:
        raise InviteeSeated()
    if is_blocked_either_way(inviter.pk, invitee.pk):
        raise UserBlocked()
    if Invitation.objects.filter(
        match=match, invitee=invitee, status=InvitationStatus.PENDING
    ).exists():
        raise AlreadyInvited()
    invitation = Invitation.objects.create(match=match, inviter=inviter, invitee=invitee)
    events.emit(
        InvitationSent(
            invitation_id=invitation.pk,
            match_id=match.pk,
            version=match.version,
            invitee_id=invitee.pk,
        )
    )
    return invitation


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
    # The invitation stands in for the invite code; match_join raises match_full and
    # already_seated as for any join, and a sanctioned invitee is refused there too.
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
