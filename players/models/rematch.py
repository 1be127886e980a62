"""A proposal to play the same table again after a finished match (one per match)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Rematch(models.Model):
    """Seats whose humans accepted, until every human seat has; then ``new_match`` is the
    match started at the same table. Past ``expires_at`` without it, the proposal is spent."""

    match = models.OneToOneField("games.Match", on_delete=models.CASCADE, related_name="rematch")
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rematches_proposed"
    )
    # Seat indices (0-3) whose players accepted; the proposer's is the first.
    accepted_seats = models.JSONField(default=list)
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    # When the proposal was called off because a player of the table can no longer play
    # (suspended, banned, deleted); ``expires_at`` is moved to the same moment.
    cancelled_at = models.DateTimeField(null=True, blank=True)
    new_match = models.OneToOneField(
        "games.Match",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="rematch_of",
    )

    def __str__(self) -> str:
        return f"Rematch of match {self.match_id}"
