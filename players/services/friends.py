"""Following players by username (one way, like a contact list)."""

from __future__ import annotations

from django.db import IntegrityError, transaction

from accounts.models import User
from players.errors import CannotFollowSelf, NotFollowing, UserBlocked
from players.models import Follow
from players.selectors.blocks import is_blocked_either_way
from players.selectors.social import user_by_username


@transaction.atomic
def follow_add(*, user: User, username: str) -> tuple[Follow, bool]:
    """Follow ``username``; following someone already followed changes nothing. A block
    between the two, either way, refuses it without saying which way."""
    target = user_by_username(username)
    if target.pk == user.pk:
        raise CannotFollowSelf()
    if is_blocked_either_way(user.pk, target.pk):
        raise UserBlocked()
    existing = Follow.objects.filter(follower=user, followed=target).first()
    if existing is not None:
        return existing, False
    try:
        with transaction.atomic():  # a concurrent identical follow loses here, harmlessly
            return Follow.objects.create(follower=user, followed=target), True
    except IntegrityError:
        return Follow.objects.get(follower=user, followed=target), False


@transaction.atomic
def follow_remove(*, user: User, username: str) -> None:
    if "\x00" in username:  # a path parameter; PostgreSQL refuses NUL in text
        raise NotFollowing()
    deleted, _ = Follow.objects.filter(
        follower=user, followed__username__iexact=username, followed__deleted_at__isnull=True
    ).delete()
    if not deleted:
        raise NotFollowing()
