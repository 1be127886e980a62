"""Account writes: registration, device logins and logouts."""

from __future__ import annotations

from django.contrib.auth import authenticate
from django.db import transaction
from django.utils import timezone

from baloot_site.errors import ServiceError

from .models import AuthToken, User, hash_token


def token_issue(*, user: User, device: str = "") -> str:
    """Create a token for one device and return the raw key (shown once, stored hashed)."""
    raw = AuthToken.new_raw_key()
    AuthToken.objects.create(user=user, key_hash=hash_token(raw), device=device[:100])
    return raw


@transaction.atomic
def user_register(*, username: str, password: str, display_name: str) -> tuple[User, str]:
    if User.objects.filter(username__iexact=username).exists():
        raise ServiceError(
            "That username is taken.",
            code="invalid",
            errors=[{"field": "username", "code": "unique", "detail": "That username is taken."}],
        )
    user = User.objects.create_user(username=username, password=password, display_name=display_name)
    return user, token_issue(user=user, device="register")


def user_login(*, username: str, password: str, device: str = "") -> tuple[User, str]:
    user = authenticate(username=username, password=password)
    if user is None:
        raise ServiceError(
            "Wrong username or password.", code="authentication_failed", status_code=401
        )
    assert isinstance(user, User)
    return user, token_issue(user=user, device=device)


def token_revoke(*, token: AuthToken) -> None:
    AuthToken.objects.filter(pk=token.pk, revoked_at__isnull=True).update(revoked_at=timezone.now())
