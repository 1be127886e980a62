"""Reports from players and the append-only moderation log.

Both tables were created by ``games`` before moderation became its own app; they keep their
names (``Meta.db_table``), and the move was made in the migration state only.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from rest_framework.utils.encoders import JSONEncoder

from games.models import Match


class ReportReason(models.TextChoices):
    CHEATING = "cheating", "Cheating or collusion"
    ABUSIVE_NAME = "abusive_name", "Abusive name"
    STALLING = "stalling", "Stalling or leaving"
    OTHER = "other", "Other"


class ReportStatus(models.TextChoices):
    OPEN = "open"
    DISMISSED = "dismissed"
    UPHELD = "upheld"


class Report(models.Model):
    """A player's report of a seat of a match. ``reported`` is the user who sat there when
    the report was made (the seat may later go to a bot)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="reports")
    seat = models.PositiveSmallIntegerField()
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_made"
    )
    reported = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_received"
    )
    reason = models.CharField(max_length=16, choices=ReportReason.choices)
    comment = models.TextField(blank=True)
    status = models.CharField(
        max_length=10, choices=ReportStatus.choices, default=ReportStatus.OPEN
    )
    created_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    sanction = models.ForeignKey(
        "accounts.Sanction",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="reports",
    )
    # The quick-chat message reported, if the report is about one (sent from ``seat``).
    chat_message = models.ForeignKey(
        "players.ChatMessage",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="reports",
    )

    class Meta:
        ordering = ["created_at"]
        constraints = [
            # One open report per reporter, reported player and match (the issue).
            models.UniqueConstraint(
                fields=["reporter", "reported", "match"],
                condition=Q(status="open"),
                name="report_one_open",
            ),
            models.CheckConstraint(condition=Q(seat__lte=3), name="report_seat_0_3"),
        ]
        indexes = [models.Index(fields=["status", "created_at"], name="report_queue")]
        db_table = "games_report"  # created by games/migrations/0003 before the app split

    def __str__(self) -> str:
        return f"Report {self.pk} on match {self.match_id} seat {self.seat}"


class ModerationKind(models.TextChoices):
    MATCH_ABORT = "match_abort"
    MATCH_ADJUDICATE = "match_adjudicate"
    SEAT_TO_BOT = "seat_to_bot"
    DEADLINE_EXTEND = "deadline_extend"
    REPORT_DISMISS = "report_dismiss"
    REPORT_UPHOLD = "report_uphold"
    SANCTION_APPLY = "sanction_apply"
    SANCTION_LIFT = "sanction_lift"


class ModerationAction(models.Model):
    """The moderation log: who did what, why, when and what changed. Append-only, written
    by moderation.services in the transaction of the change it records."""

    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="moderation_actions"
    )
    kind = models.CharField(max_length=20, choices=ModerationKind.choices)
    reason = models.TextField()
    match = models.ForeignKey(
        Match, on_delete=models.PROTECT, null=True, blank=True, related_name="moderation_log"
    )
    target_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="moderation_log",
    )
    report = models.ForeignKey(Report, on_delete=models.PROTECT, null=True, blank=True)
    sanction = models.ForeignKey(
        "accounts.Sanction", on_delete=models.PROTECT, null=True, blank=True
    )
    changes = models.JSONField(default=dict, encoder=JSONEncoder)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("moderation log entry")
        verbose_name_plural = _("moderation log")
        indexes = [models.Index(fields=["match", "created_at"], name="modlog_match")]
        db_table = "games_moderationaction"  # as Report: the table predates the app

    def __str__(self) -> str:
        return f"{self.get_kind_display()} by {self.moderator_id}"

    def save(self, *args: object, **kwargs: object) -> None:
        if self.pk is not None:
            raise ValueError("the moderation log is append-only")
        super().save(*args, **kwargs)

    def delete(self, *args: object, **kwargs: object) -> tuple[int, dict[str, int]]:
        raise ValueError("the moderation log is append-only")
