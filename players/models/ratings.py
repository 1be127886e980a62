"""A player's rating per ruleset (openskill's mu and sigma; ``ordinal`` orders leaderboards)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

# openskill's default prior (Plackett-Luce): mu 25, sigma 25/3.
DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3.0


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
        indexes = [models.Index(fields=["ruleset", "-ordinal"], name="rating_board")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.ruleset} {self.ordinal:.1f}"
