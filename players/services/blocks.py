"""Blocking a player: no invitations between the two, no follows, never at one table (however
they come to it: a join, an invitation from anyone, quick play, a rematch), their chat phrases
hidden from the blocker."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from core import clock, events
from games.events import PlayerSeated
from games.models import Seat
from players.errors import CannotBlockSelf, NotBlocked, UserBlocked
from players.models import Block, Follow, Invitation, InvitationStatus
from players.selectors.blocks import blocked_pairs
from players.selectors.social import user_by_username

# The answer to a newcomer kept from a table by a block (whoever blocked).
SEAT_REFUSED = _("You cannot sit at this table.")


def connect() -> None:
    events.subscribe(PlayerSeated, on_player_seated)


def on_player_seated(event: PlayerSeated) -> None:
    """A newcomer to a waiting table (a join, or the accept of anyone's invitation) who blocks,
    or is blocked by, someone seated there is refused, and the join rolls back. Runs under the
    match lock, so the seats read are the table's as the newcomer sits down. The refusal does
    not say who blocked whom, nor which seat."""
    seated = Seat.objects.filter(match_id=event.match_id, user__isnull=False).values_list(
        "user_id", flat=True
    )
    if any(event.user_id in pair for pair in blocked_pairs(seated)):
        raise UserBlocked(SEAT_REFUSED)


@transaction.atomic
def block_add(*, user: User, username: str) -> tuple[Block, bool]:
    """Block ``username``. Follows between the two end, both ways (a blocked player should
    not keep the blocker in their list, which would show the blocker's name), and open
    invitations between them are withdrawn. Blocking again changes nothing."""
    target = user_by_username(username)
    if target.pk == user.pk:
        raise CannotBlockSelf()
    pair = Q(follower=user, followed=target) | Q(follower=target, followed=user)
    Follow.objects.filter(pair).delete()
    Invitation.objects.filter(
        Q(inviter=user, invitee=target) | Q(inviter=target, invitee=user),
        status=InvitationStatus.PENDING,
    ).update(status=InvitationStatus.CANCELLED, responded_at=clock.now())
    existing = Block.objects.filter(blocker=user, blocked=target).first()
    if existing is not None:
        return existing, False
    try:
        with transaction.atomic():
            return Block.objects.create(blocker=user, blocked=target), True
    except IntegrityError:
        return Block.objects.get(blocker=user, blocked=target), False


@transaction.atomic
def block_remove(*, user: User, username: str) -> None:
    """Unblock: nothing that the block ended (follows, invitations) comes back."""
    if "\x00" in username:  # a path parameter; PostgreSQL refuses NUL in text
        raise NotBlocked()
    deleted, _ = Block.objects.filter(
        blocker=user, blocked__username__iexact=username, blocked__deleted_at__isnull=True
    ).delete()
    if not deleted:
        raise NotBlocked()
