"""Players and their device tokens."""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    """A player (or staff member). ``display_name`` is what other players see."""

    display_name = models.CharField(max_length=40)
    # The player's language for everything the service writes to them (errors, notifications,
    # bot names); blank: follow the request's Accept-Language.
    language = models.CharField(
        max_length=8, blank=True, choices=[("en", "English"), ("ar", "العربية")]
    )
    # Set when the player deleted the account: the row stays (seats, records and other
    # players' statistics refer to it) with its personal data erased.
    deleted_at = models.DateTimeField(null=True, blank=True)
    # When ``email`` was confirmed with a code sent to it (accounts.recovery). Only then is
    # the address used (password reset): one typed in the admin or by createsuperuser is not.
    email_verified_at = models.DateTimeField(null=True, blank=True)
    # Whether the players who follow this one see their presence (online, in a public match,
    # last seen) and hear its changes on their streams; false: they see ``offline``.
    show_presence = models.BooleanField(default=True)
    # When the player's last stream closed: written once per disconnect, never per heartbeat
    # (who is online now is in the shared cache, players.presence).
    last_seen_at = models.DateTimeField(null=True, blank=True)
    # The player's avatar: one of the built-in catalog (``accounts.avatars.catalog``) by its
    # id, or a picture they uploaded, re-encoded by ``accounts.avatars.pictures`` and kept
    # through the default storage; at most one of the two is set (accounts.avatars.services).
    avatar = models.CharField(max_length=24, blank=True)
    avatar_picture = models.FileField(upload_to="avatars/", max_length=120, blank=True)

    class Meta(AbstractUser.Meta):
        constraints = [
            # A verified address names one account, so a password reset by address is
            # unambiguous.
            models.UniqueConstraint(
                Lower("email"),
                condition=Q(email_verified_at__isnull=False),
                name="user_verified_email_unique",
            ),
        ]

    def __str__(self) -> str:
        return self.display_name or self.username


def hash_token(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


class AuthToken(models.Model):
    """An opaque bearer token, one per device login. Only its SHA-256 is stored, so a
    database leak reveals no usable token; revoking sets ``revoked_at``."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tokens"
    )
    key_hash = models.CharField(max_length=64, unique=True)
    device = models.CharField(max_length=100, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["user", "revoked_at"], name="token_user_live")]

    def __str__(self) -> str:
        return f"token {self.pk} of {self.user_id}"

    @staticmethod
    def new_raw_key() -> str:
        return secrets.token_urlsafe(32)


class SanctionKind(models.TextChoices):
    WARN = "warn"
    SUSPEND = "suspend"
    BAN = "ban"


class SanctionQuerySet(models.QuerySet["Sanction"]):
    def active(self, at: datetime | None = None) -> SanctionQuerySet:
        """Sanctions that bar access now: a ban, or a suspension not yet over, not lifted.

        Expiry needs no job: a suspension whose ``ends_at`` has passed simply stops matching.
        """
        now = at or timezone.now()
        return self.filter(
            Q(ends_at__isnull=True) | Q(ends_at__gt=now),
            kind__in=[SanctionKind.SUSPEND, SanctionKind.BAN],
            starts_at__lte=now,
            lifted_at__isnull=True,
        )


SUSPENSION_NEEDS_AN_END = _("A suspension needs an end in the future.")


def sanction_end_refusal(kind: str, ends_at: datetime | None) -> str | Promise | None:
    """Why a sanction of ``kind`` cannot end at ``ends_at``, or None if it can. The one place
    the rule lives: the moderation service and both admin forms ask here."""
    if kind == SanctionKind.SUSPEND and (ends_at is None or ends_at <= timezone.now()):
        return SUSPENSION_NEEDS_AN_END
    return None


class Sanction(models.Model):
    """A moderator's sanction. A warning is a record only; a suspension (until ``ends_at``)
    or a ban (no end) refuses the user's tokens while active. Written by moderation.services."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sanctions"
    )
    kind = models.CharField(max_length=8, choices=SanctionKind.choices)
    reason = models.TextField()
    starts_at = models.DateTimeField(default=timezone.now)
    ends_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    lifted_at = models.DateTimeField(null=True, blank=True)
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )

    objects = SanctionQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["user", "lifted_at"], name="sanction_user_live")]
        constraints = [
            models.CheckConstraint(
                condition=~Q(kind="suspend") | Q(ends_at__isnull=False),
                name="sanction_suspension_has_end",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} of {self.user_id}"


class CodePurpose(models.TextChoices):
    VERIFY_EMAIL = "verify_email"
    PASSWORD_RESET = "password_reset"


class EmailCode(models.Model):
    """A one-time code mailed to ``email``: to confirm that address (``verify_email``), or to
    set a new password (``password_reset``). At most one per account and purpose: a new one
    replaces the old. Only a keyed hash of the code is stored (``accounts.recovery``); the row
    is deleted when the code is used, and a code dies after a few wrong guesses."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="email_codes"
    )
    purpose = models.CharField(max_length=16, choices=CodePurpose.choices)
    email = models.EmailField()
    code_hash = models.CharField(max_length=64)
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    failures = models.PositiveSmallIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "purpose"], name="email_code_one_per_purpose")
        ]

    def __str__(self) -> str:
        return f"{self.purpose} code of {self.user_id}"


class IdentityProvider(models.TextChoices):
    APPLE = "apple", "Apple"
    GOOGLE = "google", "Google"


class Identity(models.Model):
    """An account at Apple or Google that signs in to ``user``: the provider's stable subject
    (``sub``) for our app. Erased with the account (``accounts.services.account_delete``)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="identities"
    )
    provider = models.CharField(max_length=16, choices=IdentityProvider.choices)
    subject = models.CharField(max_length=255)
    # The address the provider vouches for (``email_verified``), as of the latest sign-in;
    # blank when it vouched for none. Kept here only: the account's own email is not this.
    email = models.EmailField(blank=True)
    linked_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "identities"
        constraints = [
            models.UniqueConstraint(fields=["provider", "subject"], name="identity_unique"),
            # DELETE /me/identities/{provider} names one.
            models.UniqueConstraint(fields=["user", "provider"], name="identity_one_per_provider"),
        ]

    def __str__(self) -> str:
        return f"{self.provider} identity of {self.user_id}"


class UsedNonce(models.Model):
    """A nonce that signed someone in, kept until its ID token expires: a token replayed with
    it is refused (``nonce_reused``), and after the token's expiry the token itself is refused.
    ``digest`` is the SHA-256 of the nonce claim, so nothing here can be replayed either."""

    provider = models.CharField(max_length=16, choices=IdentityProvider.choices)
    digest = models.CharField(max_length=64)
    expires_at = models.DateTimeField(db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["provider", "digest"], name="used_nonce_unique")
        ]

    def __str__(self) -> str:
        return f"{self.provider} nonce {self.digest[:8]}"
