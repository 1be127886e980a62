"""Tournaments, their entries (teams of two), rounds and pairings (docs/tournaments.md).

A pairing names its match once the round starts; the match itself is an ordinary rated match
(games), which knows nothing of the tournament. Results flow back through ``MatchFinished``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games import engine


class Format(models.TextChoices):
    KNOCKOUT = "knockout"
    SWISS = "swiss"


class TournamentStatus(models.TextChoices):
    REGISTRATION = "registration"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class Tournament(models.Model):
    name = models.CharField(max_length=80)
    format = models.CharField(max_length=8, choices=Format.choices)
    ruleset = models.CharField(max_length=32, default=engine.GAMERULES.name)
    target = models.PositiveIntegerField(default=152)
    turn_seconds = models.PositiveIntegerField(default=86400)
    public = models.BooleanField(default=False)
    invite_code = models.CharField(max_length=16, blank=True)
    capacity = models.PositiveIntegerField(help_text=_("The most teams that may enter."))
    starts_at = models.DateTimeField()
    # Swiss only: how many rounds (fewer if the field runs out of teams that have not met).
    swiss_rounds = models.PositiveSmallIntegerField(null=True, blank=True)
    # How long a round may run: past it, every unfinished match is adjudicated.
    round_seconds = models.PositiveIntegerField()
    status = models.CharField(
        max_length=12, choices=TournamentStatus.choices, default=TournamentStatus.REGISTRATION
    )
    current_round = models.PositiveSmallIntegerField(default=0)
    winner = models.ForeignKey(
        "Entry", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    end_note = models.CharField(max_length=200, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_tournaments"
    )
    created_at = models.DateTimeField()
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        permissions = [
            ("moderate_tournament", "Can cancel tournaments and disqualify or replace teams"),
        ]
        indexes = [
            models.Index(fields=["status", "starts_at"], name="tournament_due"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.format}, {self.status})"


class EntryStatus(models.TextChoices):
    INVITED = "invited"  # waiting for the partner to accept
    SOLO = "solo"  # alone: paired with another solo entry when registration closes
    CONFIRMED = "confirmed"  # a team of two
    WITHDRAWN = "withdrawn"
    DISQUALIFIED = "disqualified"
    LAPSED = "lapsed"  # registration closed with the partner's answer missing, or no solo partner


# Entries that hold their players: a player is in at most one of these per tournament.
HOLDING = (EntryStatus.INVITED, EntryStatus.SOLO, EntryStatus.CONFIRMED)


class Entry(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournament_entries"
    )
    partner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournament_partnerships",
    )
    status = models.CharField(max_length=12, choices=EntryStatus.choices)
    seed = models.PositiveIntegerField(null=True, blank=True)  # 1 the best, set at the start
    rating = models.FloatField(null=True, blank=True)  # the team's mean ordinal at the start
    created_at = models.DateTimeField()
    confirmed_at = models.DateTimeField(null=True, blank=True)
    left_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = _("entries")
        constraints = [
            models.CheckConstraint(
                condition=~Q(player=models.F("partner")), name="tournament_entry_partner_not_self"
            ),
        ]

    def __str__(self) -> str:
        return f"entry {self.pk} of tournament {self.tournament_id} ({self.status})"

    @property
    def members(self) -> list[int]:
        return [uid for uid in (self.player_id, self.partner_id) if uid is not None]


class Membership(models.Model):
    """One row per player holding a place in a tournament: the unique constraint is what
    makes two entries for one player impossible, whichever requests race."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="memberships")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"], name="tournament_membership_one_per_player"
            ),
        ]

    def __str__(self) -> str:
        return f"user {self.user_id} in entry {self.entry_id}"


class RoundStatus(models.TextChoices):
    RUNNING = "running"
    FINISHED = "finished"


class TournamentRound(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=8, choices=RoundStatus.choices)
    started_at = models.DateTimeField()
    deadline = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"], name="tournament_round_unique_number"
            ),
        ]
        indexes = [models.Index(fields=["status", "deadline"], name="tournament_round_due")]

    def __str__(self) -> str:
        return f"round {self.number} of tournament {self.tournament_id}"


class Outcome(models.TextChoices):
    PLAYED = "played"  # the match ended by the rules (or a resignation)
    BYE = "bye"  # no opponent this round
    WALKOVER = "walkover"  # the opponent withdrew or was disqualified before the match
    FORFEIT = "forfeit"  # a team did not show up, withdrew or was disqualified mid-match
    ADJUDICATED = "adjudicated"  # the round's deadline passed: decided by the score


class Pairing(models.Model):
    round = models.ForeignKey(TournamentRound, on_delete=models.CASCADE, related_name="pairings")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    position = models.PositiveSmallIntegerField()  # bracket order (knockout), board (Swiss)
    team_a = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="+")
    team_b = models.ForeignKey(
        Entry, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    match = models.OneToOneField(
        "games.Match",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournament_pairing",
    )
    winner = models.ForeignKey(
        Entry, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    outcome = models.CharField(max_length=12, choices=Outcome.choices, blank=True)
    score_a = models.IntegerField(default=0)
    score_b = models.IntegerField(default=0)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["round", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "position"], name="tournament_pairing_unique_position"
            ),
        ]

    def __str__(self) -> str:
        return f"pairing {self.position} of {self.round}"
