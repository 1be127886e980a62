"""Players and their device tokens."""

from __future__ import annotations

import hashlib
import secrets

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    """A player (or staff member). ``display_name`` is what other players see."""

    display_name = models.CharField(max_length=40)

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
