"""Following another player, and inviting a player to a waiting match."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Follow(models.Model):
    """``follower`` follows ``followed``: one way, like a contact list (``GET /me/friends``)."""

    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="follows_made"
    )
    followed = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="followers"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_once"),
            models.CheckConstraint(
                condition=~Q(follower=models.F("followed")), name="follow_not_self"
            ),
        ]
        indexes = [models.Index(fields=["follower", "-created_at"], name="follow_list")]

    def __str__(self) -> str:
        return f"{self.follower_id} follows {self.followed_id}"


class InvitationStatus(models.TextChoices):
    PENDING = "pending"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    # Withdrawn by the system: a block between the two players.
    CANCELLED = "cancelled"


class Invitation(models.Model):
    """A seated player asks ``invitee`` to join a waiting match (no invite code needed)."""

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="invitations")
    inviter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations_sent"
    )
    invitee = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations_received"
    )
    status = models.CharField(
        max_length=10, choices=InvitationStatus.choices, default=InvitationStatus.PENDING
    )
    created_at = models.DateTimeField(auto_now_add=True)
    responded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            # One open invitation per player and match, whoever sent it.
            models.UniqueConstraint(
                fields=["match", "invitee"],
                condition=Q(status="pending"),
                name="invitation_one_pending",
            ),
        ]
        indexes = [
            models.Index(fields=["invitee", "status", "-created_at"], name="invitation_inbox")
        ]

    def __str__(self) -> str:
        return f"{self.inviter_id} invites {self.invitee_id} to match {self.match_id}"
