"""Blocking a player: no invitations between the two, no follows, never seated together by
quick play, their chat phrases hidden from the blocker."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import Q

from accounts.models import User
from core import clock
from players.errors import CannotBlockSelf, NotBlocked
from players.models import Block, Follow, Invitation, InvitationStatus
from players.selectors.social import user_by_username


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
        blocker=user, blocked__username=username, blocked__deleted_at__isnull=True
    ).delete()
    if not deleted:
        raise NotBlocked()
