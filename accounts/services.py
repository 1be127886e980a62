"""Account writes: registration, device logins and logouts.

Password hashing (PBKDF2, deliberately slow) never runs inside a write transaction: on SQLite
a write transaction holds the database's only write lock, so every move would wait for it.
"""

from __future__ import annotations

from django.contrib.auth import authenticate, user_logged_in
from django.contrib.auth.hashers import make_password
from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.errors import WrongCredentials
from core.errors import InvalidInput

from .authentication import AccountSanctioned
from .lockout import LoginLocked
from .models import AuthToken, User, hash_token
from .selectors import sanction_active_for


def token_issue(*, user: User, device: str = "") -> str:
    """Create a token for one device and return the raw key (shown once, stored hashed)."""
    raw = AuthToken.new_raw_key()
    AuthToken.objects.create(user=user, key_hash=hash_token(raw), device=device[:100])
    return raw


def user_register(*, username: str, password: str, display_name: str) -> tuple[User, str]:
    encoded = make_password(password)  # before the transaction: see the module docstring
    with transaction.atomic():
        if User.objects.filter(username__iexact=username).exists():
            raise InvalidInput(
                _("That username is taken."),
                errors=[
                    {"field": "username", "code": "unique", "detail": _("That username is taken.")}
                ],
            )
        # What create_user does, with the hash already made.
        user = User.objects.create(
            username=User.normalize_username(username),
            password=encoded,
            display_name=display_name,
        )
        return user, token_issue(user=user, device="register")


def user_login(
    *, request: HttpRequest, username: str, password: str, device: str = ""
) -> tuple[User, str]:
    """A new device token, if the password is right, the account is not locked out by failed
    logins (django-axes, which needs ``request``) and not suspended or banned."""
    user = authenticate(request, username=username, password=password)
    if user is None:
        if getattr(request, "axes_locked_out", False):
            raise LoginLocked(username)
        raise WrongCredentials()
    assert isinstance(user, User)
    # Only after the password: a sanction is nobody else's business. The same 403 its tokens
    # get, and no token that could not be used anyway.
    sanction = sanction_active_for(user)
    if sanction is not None:
        raise AccountSanctioned(sanction)
    # A successful login: resets axes' failure count and sets last_login.
    user_logged_in.send(sender=user.__class__, request=request, user=user)
    return user, token_issue(user=user, device=device)


def token_revoke(*, token: AuthToken) -> None:
    AuthToken.objects.filter(pk=token.pk, revoked_at__isnull=True).update(revoked_at=timezone.now())
