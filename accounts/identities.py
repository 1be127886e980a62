"""Signing in with an Apple or Google identity, linking one to an account, unlinking it.

Each service takes an identity already verified (``accounts.providers.id_token_verify``, which
fetches keys and so runs before any transaction) and does its writes in one short
transaction: the token's nonce is marked used there too, so a refusal (a sanction, an
identity linked elsewhere) leaves the nonce free and nothing else changed.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.errors import (
    AccountClosed,
    IdentityInUse,
    IdentityNotLinked,
    LastSignInMethod,
    NonceReused,
    ProviderAlreadyLinked,
    WrongIdentity,
)
from accounts.names import MAX_LENGTH, clean_display_name
from accounts.providers import VerifiedIdentity, id_token_verify, provider_for

from .authentication import AccountSanctioned
from .models import Identity, UsedNonce, User
from .selectors import sanction_active_for
from .services import account_erase, token_issue

# A generated username: the registration pattern (^[A-Za-z0-9_.-]{3,30}$), not the deleted
# accounts' prefix, and saying nothing about the provider (usernames are public).
_USERNAME_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"


@dataclass(frozen=True)
class SignIn:
    user: User
    token: str
    created: bool
    identity: Identity


def identity_sign_in(
    *, verified: VerifiedIdentity, display_name: str = "", device: str = ""
) -> SignIn:
    """A device token for the account ``verified`` signs in to, creating the account (no
    password, a generated username, ``display_name`` or the provider's name) when the
    identity is new. The same refusals as a password login: a suspended or banned account
    (403), a deleted or deactivated one (401)."""
    for attempt in (1, 2):
        try:
            return _sign_in(verified, display_name, device)
        except _Raced:
            # Another request created the account of this identity first (a double tap):
            # everything here rolled back; the next attempt finds that account.
            if attempt == 2:
                raise IdentityInUse() from None
    raise AssertionError("unreachable")  # pragma: no cover


class _Raced(Exception):
    pass


def _sign_in(verified: VerifiedIdentity, display_name: str, device: str) -> SignIn:
    with transaction.atomic():
        _nonce_use(verified)
        identity = (
            Identity.objects.select_for_update()
            .select_related("user")
            .filter(provider=verified.provider, subject=verified.subject)
            .first()
        )
        created = identity is None
        if identity is None:
            user = _user_create(display_name or verified.name)
            identity = _identity_create(user, verified, race=_Raced)
        else:
            user = identity.user
            if not user.is_active:
                raise AccountClosed()
            sanction = sanction_active_for(user)
            if sanction is not None:
                raise AccountSanctioned(sanction)
            _identity_touch(identity, verified)
        user.last_login = timezone.now()  # as a password login sets it
        user.save(update_fields=["last_login"])
        return SignIn(
            user=user,
            token=token_issue(user=user, device=device or verified.provider),
            created=created,
            identity=identity,
        )


def identity_link(*, user: User, verified: VerifiedIdentity) -> Identity:
    """Link the identity to the signed-in ``user``. Linking one already theirs is a sign-in
    that changes nothing but its nonce and email; one of another account is
    ``identity_in_use``; a second one of the same provider ``provider_already_linked``."""
    with transaction.atomic():
        _nonce_use(verified)
        locked = User.objects.select_for_update().get(pk=user.pk)
        if not locked.is_active:
            raise AccountClosed()
        existing = Identity.objects.filter(
            provider=verified.provider, subject=verified.subject
        ).first()
        if existing is not None:
            if existing.user_id != locked.pk:
                raise IdentityInUse()
            _identity_touch(existing, verified)
            return existing
        if Identity.objects.filter(user=locked, provider=verified.provider).exists():
            raise ProviderAlreadyLinked()
        return _identity_create(locked, verified, race=IdentityInUse)


def identity_unlink(*, user: User, provider: str) -> None:
    """Unlink ``user``'s identity of ``provider``; never the last way into the account: an
    account without a password keeps its only identity (``last_sign_in_method``)."""
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        identity = Identity.objects.filter(user=locked, provider=provider).first()
        if identity is None:
            raise IdentityNotLinked()
        others = Identity.objects.filter(user=locked).exclude(pk=identity.pk).exists()
        if not others and not locked.has_usable_password():
            raise LastSignInMethod()
        identity.delete()


def account_delete_by_sign_in(
    *, user: User, provider: str, id_token: str, nonce: str | None
) -> None:
    """Delete ``user``'s account, a fresh sign-in with one of its identities confirming it:
    how an account without a password (made by a sign-in) confirms ``DELETE /me``. The token
    is verified before the transaction (it may fetch keys); its nonce is used in it."""
    verified = id_token_verify(provider_for(provider), id_token, nonce)
    with transaction.atomic():
        _nonce_use(verified)
        locked = User.objects.select_for_update().get(pk=user.pk)
        if not Identity.objects.filter(
            user=locked, provider=verified.provider, subject=verified.subject
        ).exists():
            raise WrongIdentity()
        account_erase(locked)


def identities_json(user: User) -> list[dict[str, Any]]:
    """The caller's linked identities, for ``GET /me`` (the email only they may see)."""
    return [identity_json(i) for i in Identity.objects.filter(user=user).order_by("provider")]


def identity_json(identity: Identity) -> dict[str, Any]:
    return {
        "provider": identity.provider,
        "email": identity.email or None,
        "linked_at": identity.linked_at,
    }


def _nonce_use(verified: VerifiedIdentity) -> None:
    """Mark the token's nonce used until the token expires; ``nonce_reused`` if it was."""
    now = timezone.now()
    # Nonces of tokens past their expiry can go: those tokens are refused as expired anyway.
    UsedNonce.objects.filter(expires_at__lt=now).delete()
    if verified.nonce_digest is None:
        return
    try:
        with transaction.atomic():  # a savepoint: the unique constraint decides a race
            UsedNonce.objects.create(
                provider=verified.provider,
                digest=verified.nonce_digest,
                expires_at=verified.expires_at,
            )
    except IntegrityError:
        raise NonceReused() from None


def _identity_create(user: User, verified: VerifiedIdentity, *, race: type[Exception]) -> Identity:
    now = timezone.now()
    try:
        with transaction.atomic():
            return Identity.objects.create(
                user=user,
                provider=verified.provider,
                subject=verified.subject,
                email=verified.email,
                last_used_at=now,
            )
    except IntegrityError as exc:
        # Linked by a request that committed since we looked.
        raise race() from exc


def _identity_touch(identity: Identity, verified: VerifiedIdentity) -> None:
    identity.email = verified.email
    identity.last_used_at = timezone.now()
    identity.save(update_fields=["email", "last_used_at"])


def _user_create(name: str) -> User:
    username = _username_new()
    user = User(username=username, display_name=_display_name(name, username))
    user.set_unusable_password()  # no password: the identity is the way in
    user.save()
    return user


def _username_new() -> str:
    while True:
        username = "player-" + "".join(secrets.choice(_USERNAME_ALPHABET) for _ in range(10))
        if not User.objects.filter(username__iexact=username).exists():
            return username


def _display_name(name: str, username: str) -> str:
    """The name given, under the display-name rules (``accounts.names``), else one made from
    the username: a provider's name may be anything, and is no reason to refuse a sign-in."""
    try:
        return clean_display_name(name[:MAX_LENGTH])
    except ValidationError:
        return "Player " + username.removeprefix("player-")[:4].upper()
