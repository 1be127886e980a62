"""Push targets (one per device), mute preferences, and the outbox of notifications."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from live.push.kinds import EventKind


class Platform(models.TextChoices):
    FCM = "fcm", "Firebase Cloud Messaging"
    APNS = "apns", "Apple Push Notification service"
    WEBPUSH = "webpush", "Web Push"


class Language(models.TextChoices):
    EN = "en", "English"
    AR = "ar", "Arabic"


class Device(models.Model):
    """Where to push for one of a user's devices. ``token`` is the FCM registration token or
    the APNs device token; a Web Push target is its subscription (``endpoint`` + keys)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_devices"
    )
    platform = models.CharField(max_length=8, choices=Platform.choices)
    # FCM/APNs token, or the Web Push endpoint URL: what identifies the target at its service.
    address = models.CharField(max_length=1024)
    p256dh = models.CharField(max_length=200, blank=True)
    auth = models.CharField(max_length=64, blank=True)
    language = models.CharField(max_length=2, choices=Language.choices, default=Language.EN)
    # The kinds this device is not pushed (its owner's account-wide mutes apply besides).
    muted = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            # Re-registering the same target updates it instead of adding a second copy.
            models.UniqueConstraint(fields=["platform", "address"], name="push_device_target"),
        ]
        indexes = [models.Index(fields=["user", "id"], name="push_device_user")]

    def __str__(self) -> str:
        return f"{self.platform} device {self.pk} of user {self.user_id}"


class Preferences(models.Model):
    """Which kinds a user muted; a user with no row hears everything."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_preferences"
    )
    muted = models.JSONField(default=list)

    def __str__(self) -> str:
        return f"push preferences of user {self.user_id}"


class NotificationStatus(models.TextChoices):
    PENDING = "pending"
    SENT = "sent"
    FAILED = "failed"
    # Nothing to deliver any more: the reminder's turn was played, no device is left.
    SKIPPED = "skipped"


class Notification(models.Model):
    """One outbox row: written in the transaction of the change that causes it, delivered
    after the commit. ``key`` makes (user, kind, match, version) unique, so a redelivered
    event or a retried transaction cannot write a second row."""

    key = models.CharField(max_length=120, unique=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_notifications"
    )
    kind = models.CharField(max_length=24, choices=EventKind.choices)
    match_id = models.BigIntegerField(null=True, blank=True)
    version = models.PositiveIntegerField(null=True, blank=True)
    # Public facts the texts and the payload carry (deadline, result, scores); never a card.
    data = models.JSONField(default=dict)
    status = models.CharField(
        max_length=8, choices=NotificationStatus.choices, default=NotificationStatus.PENDING
    )
    attempts = models.PositiveSmallIntegerField(default=0)
    # When a pending row may be (re)tried: now for most, later for a reminder or a backoff;
    # a claimed row's lease (a worker killed mid-send leaves it to the sweep after this).
    due_at = models.DateTimeField()
    # Devices that accepted it already; a retry sends to the others only.
    delivered_to = models.JSONField(default=list)
    last_error = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            # The sweep's query: pending rows that are due.
            models.Index(fields=["status", "due_at"], name="push_outbox_due"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} for user {self.user_id} ({self.status})"

    @property
    def collapse_key(self) -> str:
        """A newer notification for a match replaces the older on the device."""
        if self.match_id is not None:
            return f"match-{self.match_id}"
        return f"{self.kind}-{self.user_id}".replace("_", "-")


def notification_key(
    *, user_id: int, kind: str, match_id: int | None, version: int | None, scope: str = ""
) -> str:
    """One row per (user, kind, match, version), and per ``scope`` for events about no match
    (a tournament's round: ``t<id>r<round>``)."""
    key = f"{kind}:{match_id or 0}:{version or 0}:{user_id}"
    return f"{key}:{scope}" if scope else key
