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
    # A report about the reported player's uploaded picture (accounts.avatars): its storage
    # name when reported, and a copy kept as evidence (the player may change or remove the
    # picture before a moderator looks). Blank when the report is not about one.
    avatar_picture = models.CharField(max_length=120, blank=True)
    avatar_evidence = models.FileField(upload_to="reports/", max_length=120, blank=True)

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
    FLAG_DISMISS = "flag_dismiss"
    FLAG_UPHOLD = "flag_uphold"
    AVATAR_REMOVE = "avatar_remove"
    # tournaments.services.staff (``changes`` names the tournament and the entry)
    TOURNAMENT_CREATE = "tournament_create"
    TOURNAMENT_EDIT = "tournament_edit"
    TOURNAMENT_CANCEL = "tournament_cancel"
    TEAM_DISQUALIFY = "team_disqualify"
    TEAM_REPLACE = "team_replace"


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


class FlagKind(models.TextChoices):
    ONE_SIDED_RESULTS = "one_sided_results", "One-sided results between the same accounts"
    SHARED_HANDS = "shared_hands", "Partners whose play fits each other's hands"
    ENGINE_HELP = "engine_help", "Play as close to the engine as the hard bot's"


class Flag(models.Model):
    """An entry of the moderators' queue raised by the system rather than by a player: a
    pattern worth a look, with the matches that show it. Three kinds: accounts that beat the
    same opponents in rated match after rated match (rating farming, issue 23; the matches
    in ``evidence``; ``moderation.services.flags``), and the fair-play signals the post-game
    analyses feed (partners whose play fits each other's hands, play at the engine's level;
    ``moderation.services.fairplay``: the accounts in ``subjects``, the matches in
    ``matches``, the figures in ``statistic``). Settled like a report: dismissed, or upheld
    once the moderators have acted (a sanction goes through the user's page). Nothing of it
    is shown to players, and nothing is sanctioned by it."""

    kind = models.CharField(max_length=24, choices=FlagKind.choices)
    ruleset = models.CharField(max_length=32)
    # The match whose result (or analysis) raised the flag; the evidence holds it and the
    # earlier ones.
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="flags")
    # The fair-play signals': the accounts, the analysed matches read, and the test's figures
    # (``moderation.fairplay``: the statistic, its p-value, the threshold, the counts).
    subjects = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="+")
    matches = models.ManyToManyField(Match, blank=True, related_name="+")
    statistic = models.JSONField(default=dict, blank=True)
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

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["status", "created_at"], name="flag_queue")]

    def __str__(self) -> str:
        return f"Flag {self.pk} ({self.get_kind_display()})"


class FlagEvidence(models.Model):
    """One match of a flag's evidence: ``winner`` beat ``loser`` in it. A match is evidence
    for a pair of opponents once (the unique constraint), so the same results never raise a
    second flag: the next flag for the pair needs as many new wins again."""

    flag = models.ForeignKey(Flag, on_delete=models.CASCADE, related_name="evidence")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    winner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    loser = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")

    class Meta:
        ordering = ["flag", "match", "winner", "loser"]
        constraints = [
            models.UniqueConstraint(
                fields=["winner", "loser", "match"], name="flag_evidence_once_per_pair"
            ),
        ]

    def __str__(self) -> str:
        return f"match {self.match_id}: {self.winner_id} beat {self.loser_id}"
