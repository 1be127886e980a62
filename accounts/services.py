"""Account writes: registration, device logins and logouts, the profile, the password and
deleting the account.

Password hashing (PBKDF2, deliberately slow) never runs inside a write transaction: on SQLite
a write transaction holds the database's only write lock, so every move would wait for it.
"""

from __future__ import annotations

import enum
import secrets

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib.admin.models import LogEntry
from django.contrib.auth import authenticate, user_logged_in
from django.contrib.auth.hashers import make_password
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone

from accounts.avatars.services import picture_clear
from accounts.errors import UsernameTaken, WrongCredentials, WrongPassword
from accounts.events import AccountDeleted
from core import events

from .authentication import AccountSanctioned
from .lockout import LoginLocked
from .models import AuthToken, EmailCode, Identity, User, hash_token
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
            raise UsernameTaken()
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


# --- The signed-in player's own account ------------------------------------------------------


class Keep(enum.Enum):
    """A profile field left as it is (``None`` is a value: the language cleared)."""

    KEEP = "keep"


KEEP = Keep.KEEP
DELETED_PREFIX = "deleted-"


def profile_update(
    *,
    user: User,
    display_name: str | Keep = KEEP,
    language: str | Keep | None = KEEP,
    show_presence: bool | Keep = KEEP,
    avatar: str | Keep | None = KEEP,
) -> User:
    """Change the display name (already cleaned: ``accounts.names.clean_display_name``), the
    language (``en``, ``ar``, or None to follow each request's Accept-Language), whether
    followers see the player's presence, and the avatar (a catalog id, checked by the caller,
    or None for none; either replaces an uploaded picture, whose file then goes)."""
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        fields = []
        if display_name is not KEEP:
            locked.display_name = display_name
            fields.append("display_name")
        if language is not KEEP:
            locked.language = language or ""
            fields.append("language")
        if show_presence is not KEEP:
            locked.show_presence = show_presence
            fields.append("show_presence")
        if avatar is not KEEP:
            locked.avatar = avatar or ""
            picture_clear(locked)
            fields += ["avatar", "avatar_picture"]
        if fields:
            locked.save(update_fields=fields)
    return locked


def _password_confirm(*, request: HttpRequest, user: User, password: str, field: str) -> str:
    """The account's password hash, if ``password`` is the account's password; slow (it
    hashes), so never inside a transaction. Checked as a login is (django-axes, which needs
    ``request``): a wrong one counts towards the account's lockout, and a locked account is
    refused even with the right one, so a stolen token cannot be used to guess it."""
    checked = authenticate(request, username=user.get_username(), password=password)
    if checked is None or checked.pk != user.pk:
        if getattr(request, "axes_locked_out", False):
            raise LoginLocked(user.get_username())
        raise WrongPassword(field)
    return checked.password


def password_change(
    *,
    request: HttpRequest,
    user: User,
    old_password: str,
    new_password: str,
    keep: AuthToken | None,
) -> int:
    """Set a new password (already checked against AUTH_PASSWORD_VALIDATORS) once the old one
    is confirmed, and revoke every token of the user but ``keep`` (the caller's): other
    devices sign in again. Returns how many tokens were revoked."""
    checked = _password_confirm(
        request=request, user=user, password=old_password, field="old_password"
    )
    encoded = make_password(new_password)  # outside the transaction, as both checks above
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        if locked.password != checked:
            # Changed by another device between the check and the lock: the old password
            # confirmed is no longer the account's.
            raise WrongPassword("old_password")
        locked.password = encoded
        locked.save(update_fields=["password"])
        others = AuthToken.objects.filter(user=locked, revoked_at__isnull=True)
        if keep is not None:
            others = others.exclude(pk=keep.pk)
        return others.update(revoked_at=timezone.now())


def anonymous_username(user_id: int) -> str:
    """The username a deleted account is left with. Registration refuses the prefix
    (``accounts.api.serializers``), so no living account can hold it."""
    return f"{DELETED_PREFIX}{user_id}"


def account_delete(*, request: HttpRequest, user: User, password: str) -> None:
    """Delete the caller's account, ``password`` confirming it.

    The row stays, for the seats, records and other players' statistics that refer to it;
    what identified the person is erased: username (replaced by ``deleted-<id>``, so the old
    one is free to register again), display name (blank: seats show the anonymous username),
    email (and its mailed codes), names, language, last login, the Apple and Google
    identities; the password becomes unusable, the account inactive (so a session or an open
    WebSocket, re-checked, ends), every token is revoked. Failed login records kept under the
    old username (django-axes) and the admin's history of the account, which repeats its old
    name, are cleared too.

    Then ``AccountDeleted`` is emitted, in the same transaction: the apps above accounts
    clean up what they keep (games frees or hands over the seats, push removes devices).
    Accounts cannot know them (the layer contract); a deletion that half happened would be
    worse than none, so a listener's failure rolls all of it back.
    """
    checked = _password_confirm(request=request, user=user, password=password, field="password")
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        if locked.password != checked:
            raise WrongPassword("password")
        account_erase(locked)


def account_erase(locked: User) -> None:
    """What deleting an account does once it is confirmed (``account_delete`` above, or a
    fresh sign-in: ``accounts.identities.account_delete_by_sign_in``); inside the caller's
    transaction, ``locked`` the user's row locked in it."""
    old_username = locked.get_username()
    _personal_data_erase(locked)
    # Apple and Google sign-ins go: the person's identities at them are personal data, and
    # a new sign-in with one makes a new account.
    Identity.objects.filter(user=locked).delete()
    # Mailed codes name the address (accounts.recovery): erased with it.
    EmailCode.objects.filter(user=locked).delete()
    AuthToken.objects.filter(user=locked, revoked_at__isnull=True).update(revoked_at=timezone.now())
    for records in (AccessAttempt, AccessFailureLog, AccessLog):
        records.objects.filter(username=old_username).delete()
    LogEntry.objects.filter(
        content_type=ContentType.objects.get_for_model(User), object_id=str(locked.pk)
    ).update(object_repr=str(locked))
    events.emit(AccountDeleted(user_id=locked.pk))


def _personal_data_erase(user: User) -> None:
    username = anonymous_username(user.pk)
    if User.objects.filter(username__iexact=username).exclude(pk=user.pk).exists():
        # Only an account registered before the prefix was refused can hold it.
        username = f"{username}-{secrets.token_hex(4)}"
    user.username = username
    user.display_name = ""
    user.email = ""
    user.email_verified_at = None
    user.first_name = ""
    user.last_name = ""
    user.language = ""
    user.last_login = None
    user.last_seen_at = None
    user.avatar = ""
    picture_clear(user)  # the file goes once the deletion commits
    user.set_unusable_password()
    user.is_active = False
    user.is_staff = False
    user.is_superuser = False
    user.deleted_at = timezone.now()
    user.save()
    user.groups.clear()
    user.user_permissions.clear()
