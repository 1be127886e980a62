"""Quick play: a player's request for a table (``Ticket``), until it is placed or cancelled.

A ticket keeps what placement needs without another query: the ruleset and turn speed asked
for (only tickets that agree on both share a table), the wait after which bots may fill the
empty seats, and the player's rating when they asked (the ordinal of ``players.Rating``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class TicketStatus(models.TextChoices):
    WAITING = "waiting"
    PLACED = "placed"
    CANCELLED = "cancelled"


class Ticket(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="matchmaking_tickets"
    )
    ruleset = models.CharField(max_length=32)
    turn_seconds = models.PositiveIntegerField()
    # None: humans only, however long it takes.
    bots_after_seconds = models.PositiveIntegerField(null=True, blank=True)
    # The ordinal (mu - 3 sigma) in ``ruleset`` when the ticket was made.
    rating = models.FloatField()
    status = models.CharField(
        max_length=10, choices=TicketStatus.choices, default=TicketStatus.WAITING
    )
    match = models.ForeignKey(
        "games.Match", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    # From core.clock (not auto_now_add), so that a test can move time and watch the band widen.
    created_at = models.DateTimeField()
    placed_at = models.DateTimeField(null=True, blank=True)
    cancelled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            # One open request per player: the second POST is refused (already_queued), and
            # two racing POSTs of one player cannot both land.
            models.UniqueConstraint(
                fields=["user"],
                condition=Q(status="waiting"),
                name="ticket_one_waiting_per_user",
            ),
            models.CheckConstraint(
                condition=~Q(status="placed") | Q(match__isnull=False, placed_at__isnull=False),
                name="ticket_placed_has_match",
            ),
        ]
        indexes = [
            # Placement reads the waiting tickets of one ruleset and speed, oldest first.
            models.Index(
                fields=["ruleset", "turn_seconds", "created_at"],
                name="ticket_queue",
                condition=Q(status="waiting"),
            ),
            # GET /matchmaking: the caller's latest ticket.
            models.Index(fields=["user", "-created_at"], name="ticket_latest"),
        ]

    def __str__(self) -> str:
        return f"ticket {self.pk} of {self.user_id} ({self.status})"
