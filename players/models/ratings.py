"""Ratings per ruleset (openskill's Plackett-Luce mu and sigma; ``ordinal`` orders
leaderboards), the history of every rated match, the roster a rated match started with, and
the week's gains that the weekly leaderboard sorts on."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

# openskill's default prior (Plackett-Luce): mu 25, sigma 25/3.
DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3.0
# Fewer rated matches than this in a ruleset: the rating is provisional (still moving fast).
PROVISIONAL_BELOW = 10


class Rating(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    ruleset = models.CharField(max_length=32)
    mu = models.FloatField(default=DEFAULT_MU)
    sigma = models.FloatField(default=DEFAULT_SIGMA)
    # mu - 3 sigma, kept as a column so leaderboards sort on an index.
    ordinal = models.FloatField(default=DEFAULT_MU - 3 * DEFAULT_SIGMA)
    rated_matches = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "ruleset"], name="rating_one_per_ruleset"),
        ]
        indexes = [
            # The all-time board's order with its tie-break (user id), so a page is an index
            # range and the caller's rank one COUNT over the index (players.selectors); it
            # replaces the skeleton's (ruleset, -ordinal), which it covers.
            models.Index(fields=["ruleset", "-ordinal", "user"], name="rating_board_rank"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.ruleset} {self.ordinal:.1f}"

    @property
    def provisional(self) -> bool:
        return self.rated_matches < PROVISIONAL_BELOW


class RatedSeat(models.Model):
    """Who sat where when a rated match started (four humans, no bot). The seat row itself
    may change hands later (staff hand a seat to a bot, a deleted account's seat goes to a
    bot), but the result still belongs to the human who started in it."""

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="rated_seat_once"),
        ]

    def __str__(self) -> str:
        return f"match {self.match_id} seat {self.seat}: {self.user_id}"


class RatingChange(models.Model):
    """One player's rating before and after one rated match (the history)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="+")
    ruleset = models.CharField(max_length=32)
    won = models.BooleanField()
    mu_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_before = models.FloatField()
    sigma_after = models.FloatField()
    ordinal_before = models.FloatField()
    ordinal_after = models.FloatField()
    # Set by the service (the same instant decides the week of WeeklyGain); a default, not
    # auto_now_add, so a benchmark can seed a week of history.
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "user"], name="rating_change_once"),
        ]
        indexes = [
            models.Index(fields=["user", "ruleset", "-created_at"], name="rating_history"),
        ]

    def __str__(self) -> str:
        change = f"{self.ordinal_before:.1f} → {self.ordinal_after:.1f}"
        return f"{self.user_id} match {self.match_id}: {change}"

    @property
    def delta(self) -> float:
        return self.ordinal_after - self.ordinal_before


class WeeklyGain(models.Model):
    """The sum of one player's ordinal deltas (``RatingChange``) in one ISO week of one
    ruleset, kept up to date in the same transaction as the changes, so the weekly board is an
    index range like the all-time one instead of a GROUP BY over the week's history."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    ruleset = models.CharField(max_length=32)
    week = models.DateField()  # the Monday (UTC) the ISO week starts on
    gained = models.FloatField(default=0.0)
    matches = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "ruleset", "week"], name="weekly_gain_one_per_week"
            ),
        ]
        indexes = [
            models.Index(fields=["ruleset", "week", "-gained", "user"], name="weekly_board_rank"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.ruleset} {self.week}: {self.gained:+.1f}"


class BoardMark(models.Model):
    """A milestone of one leaderboard (all-time: ``week`` null; weekly: its Monday), kept by
    beat (``players.selectors.leaderboards.marks_refresh``): the board position (value, user)
    of every ``MARK_EVERY``-th listed player at the last refresh, and how many listed players
    were ahead of it then. A rank starts from the nearest milestone ahead and counts only the
    entries from there (at most about ``MARK_EVERY``), instead of everyone ahead."""

    ruleset = models.CharField(max_length=32)
    week = models.DateField(null=True)
    value = models.FloatField()
    user_id = models.BigIntegerField()
    ahead = models.PositiveIntegerField()
    refreshed_at = models.DateTimeField()

    class Meta:
        indexes = [
            models.Index(fields=["ruleset", "week", "-value", "user_id"], name="board_mark_order"),
        ]

    def __str__(self) -> str:
        return f"{self.ruleset} {self.week or 'all'}: #{self.ahead + 1} at {self.value:.1f}"
