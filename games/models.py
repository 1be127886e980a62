"""Matches, seats, rounds and the append-only move log.

The move log plus each round's deck is the truth; ``Match.snapshot`` is a cache of the engine
state (``games.replay`` rebuilds it from them, ``manage.py rebuild_snapshots`` checks or
repairs it, and tests prove the two agree). Models hold fields, constraints and ``__str__``;
game logic lives in the engine and the services.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework.utils.encoders import JSONEncoder

from games import engine
from games.levels import BotLevel  # defined there, for code that runs without Django set up


class MatchStatus(models.TextChoices):
    WAITING = "waiting"
    ACTIVE = "active"
    FINISHED = "finished"
    ABORTED = "aborted"


class Visibility(models.TextChoices):
    PRIVATE = "private"
    PUBLIC = "public"


class EndReason(models.TextChoices):
    TARGET_REACHED = "target_reached"
    GAHWA = "gahwa"
    RESIGNED = "resigned"
    ABANDONED = "abandoned"
    ADJUDICATED = "adjudicated"


class Actor(models.TextChoices):
    HUMAN = "human"
    BOT = "bot"
    TIMEOUT = "timeout"
    STAFF = "staff"


class Match(models.Model):
    ruleset = models.CharField(max_length=32, default=engine.GAMERULES.name)
    rules_version = models.PositiveIntegerField(default=engine.GAMERULES.version)
    target = models.PositiveIntegerField(default=152)
    turn_seconds = models.PositiveIntegerField(default=86400)
    visibility = models.CharField(
        max_length=8, choices=Visibility.choices, default=Visibility.PRIVATE
    )
    invite_code = models.CharField(max_length=16, blank=True)
    # Whether the result moves ratings: chosen at creation (casual by default, quick play
    # rated, a rematch as its original) and confirmed when the match starts, which makes it
    # casual when a bot sits at the table or a pair of opponents has used up its rated
    # meetings of the day (games.selectors.rated). Ratings also need a round played out
    # (players.services.ratings).
    rated = models.BooleanField(default=False)
    status = models.CharField(
        max_length=10, choices=MatchStatus.choices, default=MatchStatus.WAITING
    )
    winner_team = models.PositiveSmallIntegerField(null=True, blank=True)
    end_reason = models.CharField(max_length=16, choices=EndReason.choices, blank=True)
    version = models.PositiveIntegerField(default=1)
    score_team0 = models.IntegerField(default=0)
    score_team1 = models.IntegerField(default=0)
    first_dealer = models.PositiveSmallIntegerField(default=0)
    move_count = models.PositiveIntegerField(default=0)
    # Whose move it is and when the sweep must act: denormalised from the snapshot for the
    # inbox and the deadline sweep, which must not decode every snapshot. For a human turn
    # ``deadline`` is the player's clock; for a bot (or away) seat it is a short grace after
    # which the sweep re-enqueues a lost bot task. Clients see it only for human turns.
    to_act = models.PositiveSmallIntegerField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    # A hard bot's worker thinking on the current version holds the turn until then (a lease
    # taken before a second-long search, so a duplicate task does not search it again at the
    # same time); null when nobody holds it. Every version bump clears it.
    thinking_until = models.DateTimeField(null=True, blank=True, editable=False)
    # The engine's versioned snapshot (``engine.state_to_snapshot``: compact UTF-8 JSON with
    # its format and version). A binary column holds exactly the bytes the engine wrote on
    # SQLite and PostgreSQL alike, and the pickles it held before (migration 0010) were
    # rewritten in place with no change of column type; None until the match starts.
    snapshot = models.BinaryField(null=True, blank=True, editable=False)
    # The deck commitments of the current and the previous round ({"number": hex}), kept on
    # the row so rendering a match view needs no query on rounds.
    recent_commitments = models.JSONField(default=dict, blank=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_matches"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = _("matches")
        permissions = [
            ("moderate_match", "Can abort, adjudicate, hand seats to bots, extend deadlines"),
        ]
        indexes = [
            models.Index(fields=["status", "visibility", "-created_at"], name="match_lobby"),
            # The deadline sweep (games.tasks) reads due deadlines. Only active matches hold
            # one, so the index covers few rows; its condition names no status because SQLite
            # uses a partial index only when the query implies the condition, and the sweep's
            # `status = %s` is a bound parameter, which `deadline <= %s` implies nothing about.
            models.Index(
                fields=["deadline"],
                name="match_due_deadline",
                condition=Q(deadline__isnull=False),
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(winner_team__isnull=True) | Q(winner_team__in=[0, 1]),
                name="match_winner_team_0_or_1",
            ),
        ]

    def __str__(self) -> str:
        return f"Match {self.pk} ({self.status})"

    @property
    def scores(self) -> list[int]:
        return [self.score_team0, self.score_team1]

    def load_state(self) -> engine.GameState | None:
        if self.snapshot is None:
            return None
        # The move path stores a state and renders it in the same request: keep the object
        # rather than decoding what we just encoded (checked against the stored bytes).
        cached = self.__dict__.get("_state_cache")
        if cached is not None and cached[0] is self.snapshot:
            return cached[1]
        # Raises engine.SnapshotError for anything but a snapshot of a known version (a
        # pickle included): ``rebuild_snapshots`` writes a good one from the log.
        state = engine.state_from_snapshot(self.snapshot)
        self.__dict__["_state_cache"] = (self.snapshot, state)
        return state

    def put_state(self, state: engine.GameState) -> None:
        self.snapshot = engine.state_to_snapshot(state)
        self.__dict__["_state_cache"] = (self.snapshot, state)
        self.score_team0, self.score_team1 = state.scores
        self.to_act = engine.to_act(state)

    def seat_list(self) -> list[Seat]:
        """The four seats with their users, loaded once per instance. Services change seats
        through these same objects, so the list stays true for the rest of the request."""
        cached = self.__dict__.get("_seat_cache")
        if cached is None:
            cached = list(self.seats.select_related("user").order_by("index"))
            self.__dict__["_seat_cache"] = cached
        return cached

    @classmethod
    def with_seats(cls, match_id: int) -> Match | None:
        """The match with its four seats and their users (``seat_list``), in one query: the
        seats joined to the match and the users. None if there is no such match."""
        seats = list(
            Seat.objects.filter(match_id=match_id).select_related("match", "user").order_by("index")
        )
        if not seats:  # every match is made with its seats; this is only the missing one
            return cls.objects.filter(pk=match_id).first()
        match = seats[0].match
        for seat in seats:
            seat.match = match  # one instance, as the related manager would give them
        match.__dict__["_seat_cache"] = seats
        return match

    def seat_at(self, index: int) -> Seat:
        return self.seat_list()[index]


class Seat(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="seats",
    )
    bot = models.CharField(max_length=8, choices=BotLevel.choices, blank=True)
    away = models.BooleanField(default=False)
    timeouts_in_row = models.PositiveSmallIntegerField(default=0)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "index"]
        constraints = [
            models.UniqueConstraint(fields=["match", "index"], name="seat_unique_index"),
            models.UniqueConstraint(
                fields=["match", "user"],
                name="seat_unique_user",
                condition=Q(user__isnull=False),
            ),
            models.CheckConstraint(condition=Q(index__lte=3), name="seat_index_0_3"),
        ]
        indexes = [models.Index(fields=["user", "match"], name="seat_inbox")]

    def __str__(self) -> str:
        who = self.user or (f"{self.bot} bot" if self.bot else "empty")
        return f"seat {self.index}: {who}"

    @property
    def team(self) -> int:
        return self.index % 2

    @property
    def is_empty(self) -> bool:
        return self.user_id is None and not self.bot


# A round's status is the engine's, the one definition (games/engine/state.py): the column
# stores its values, and the name stays here for the app's queries.
RoundStatus = engine.RoundStatus
ROUND_STATUS_CHOICES = [
    (status.value, status.name.replace("_", " ").title()) for status in RoundStatus
]


class Round(models.Model):
    """One deal. ``deck`` and ``salt`` stay server-side until the round is over; the
    ``commitment`` is public from the first moment (api.md "Fair dealing")."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    dealer = models.PositiveSmallIntegerField()
    deck = models.JSONField()
    salt = models.CharField(max_length=32)
    commitment = models.CharField(max_length=64)
    status = models.CharField(
        max_length=12, choices=ROUND_STATUS_CHOICES, default=RoundStatus.IN_PROGRESS.value
    )
    contract = models.JSONField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True)
    scores_before = models.JSONField(default=list)
    scores_after = models.JSONField(null=True, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="round_unique_number")
        ]

    def __str__(self) -> str:
        return f"Match {self.match_id} round {self.number}"


class Move(models.Model):
    """The append-only log. ``seq`` counts moves 1, 2, 3... per match without gaps;
    ``version`` is the match version the move produced."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField()
    version = models.PositiveIntegerField()
    round_number = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    actor = models.CharField(max_length=8, choices=Actor.choices)
    payload = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seq"], name="move_unique_seq"),
            models.UniqueConstraint(fields=["match", "version"], name="move_unique_version"),
        ]

    def __str__(self) -> str:
        return f"Match {self.match_id} move {self.seq}"

    def save(self, *args: object, **kwargs: object) -> None:
        if self.pk is not None:
            raise ValueError("the move log is append-only")
        super().save(*args, **kwargs)


class IdempotencyRecord(models.Model):
    """A stored successful answer to a move, replayed for the same key (api.md)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    match = models.ForeignKey(Match, on_delete=models.CASCADE)
    key = models.CharField(max_length=200)
    fingerprint = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField()
    # DRF's encoder, so a replayed body is byte-for-byte what the first answer rendered.
    body = models.JSONField(encoder=JSONEncoder)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "match", "key"], name="idempotency_unique")
        ]
        indexes = [models.Index(fields=["created_at"], name="idempotency_age")]

    def __str__(self) -> str:
        return f"{self.key} on match {self.match_id}"


class Heartbeat(models.Model):
    """When a periodic job last completed (``sweep``: the deadline sweep). ``/healthz`` reads
    it: the sweep runs only while both beat and a worker are up, so a stale beat means turns
    are not being played, whatever the web process can still answer."""

    name = models.CharField(max_length=40, primary_key=True)
    at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.name} at {self.at.isoformat()}"


class AnalysisStatus(models.TextChoices):
    PENDING = "pending"
    READY = "ready"
    # The log did not replay (only a damaged log can do that): not tried again.
    FAILED = "failed"


class MatchAnalysis(models.Model):
    """The post-game analysis of a finished match (``games.engine.analysis``): opened pending
    when the match ends, filled by a low-priority task (``games.tasks.analyse_match``).

    ``decisions`` holds every decision valued, in the order they were made, each a list
    ``[round, action, seat, kind, chosen, best, chosen_value, best_value, options,
    partner_loss, trick]`` (kind ``bid`` or ``play``; chosen and best as the move log writes
    moves; the last two None for a call, and for the fair-play signals only, never shown to
    players: ``moderation.fairplay``; analyses stored before them have the first nine). The
    per-player figures are computed from it when read (``games.selectors.analysis``). The
    seed and the sample counts are kept, so an analysis can be made again and checked."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="analysis")
    status = models.CharField(
        max_length=8, choices=AnalysisStatus.choices, default=AnalysisStatus.PENDING
    )
    seed = models.CharField(max_length=64)
    play_samples = models.PositiveSmallIntegerField()
    bid_samples = models.PositiveSmallIntegerField()
    decisions = models.JSONField(default=list, blank=True)
    # Set by the service from the injected clock, as the sweep that reads it is.
    created_at = models.DateTimeField(default=timezone.now)
    ready_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "created_at"], name="analysis_pending")]

    def __str__(self) -> str:
        return f"analysis of match {self.match_id} ({self.status})"
