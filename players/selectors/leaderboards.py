"""The leaderboards: all-time (by ordinal) and weekly (by ordinal gained this ISO week) per
ruleset, in a total order (ties broken by user id), with a player's rank counted on the same
index the board is read from.

Both boards read one table through an index whose order is the board's order:
``Rating (ruleset, -ordinal, user)`` and ``WeeklyGain (ruleset, week, -gained, user)``
(migration players/0002). A page is a range of that index (keyset, never an OFFSET), and a
rank is one COUNT of the index entries ahead; deleted accounts and banned players are left
out of the board, and the entries of theirs ahead are subtracted in the same query (they are
few, so that part is a small hashed set, not a join over the board).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, Literal

from django.db import transaction
from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from accounts.avatars.selectors import avatar_json
from accounts.models import Sanction, SanctionKind, User
from games import engine
from players.models import BoardMark, Rating, WeeklyGain
from players.models.ratings import PROVISIONAL_BELOW
from players.selectors.ratings import week_of

Period = Literal["all", "week"]
PERIODS: tuple[Period, ...] = ("all", "week")


def ruleset_exists(name: str) -> bool:
    return name in engine.RULESETS


@dataclass(frozen=True)
class Board:
    """One board: the table, its sort value, and the rows it is restricted to."""

    ruleset: str
    period: Period
    week: date | None

    @property
    def value_field(self) -> str:
        return "ordinal" if self.period == "all" else "gained"

    def rows(self) -> QuerySet[Any, Any]:
        if self.period == "all":
            return Rating.objects.filter(ruleset=self.ruleset)
        assert self.week is not None  # a weekly board has its week
        return WeeklyGain.objects.filter(ruleset=self.ruleset, week=self.week)

    def order_by(self) -> tuple[str, str]:
        return (f"-{self.value_field}", "user_id")

    def after(self, value: float, user_id: int) -> Q:
        """Rows after (value, user_id) in the board's order. The redundant ``<= value`` lets
        the database start the index scan there instead of at the top."""
        f = self.value_field
        return Q(**{f"{f}__lte": value}) & (
            Q(**{f"{f}__lt": value}) | Q(**{f: value, "user_id__gt": user_id})
        )

    def ahead(self, value: float, user_id: int) -> Q:
        f = self.value_field
        return Q(**{f"{f}__gte": value}) & (
            Q(**{f"{f}__gt": value}) | Q(**{f: value, "user_id__lt": user_id})
        )


def board_for(ruleset: str, period: Period, now: datetime | None = None) -> Board:
    week = week_of(now or timezone.now()) if period == "week" else None
    return Board(ruleset=ruleset, period=period, week=week)


def unlisted() -> Q:
    """Board rows of accounts left off every board: deleted, or banned now. Two small id sets
    (a partial index holds the deleted accounts, migration players/0002; bans are few), each
    hashed once per query rather than checked row by row."""
    deleted = User.objects.filter(deleted_at__isnull=False).values("pk")
    banned = Sanction.objects.active().filter(kind=SanctionKind.BAN).values("user_id")
    return Q(user_id__in=deleted) | Q(user_id__in=banned)


def listed(board: Board) -> QuerySet[Any, Any]:
    """The board's rows (players listed on it), in its order, with their users."""
    return board.rows().exclude(unlisted()).select_related("user").order_by(*board.order_by())


# A milestone (``BoardMark``) every this many listed players: a rank counts at most about this
# many index entries, whatever its depth.
MARK_EVERY = 1000


def _mark_ahead(board: Board, value: float, user_id: int) -> BoardMark | None:
    """The nearest milestone at or ahead of (value, user_id): one probe of its index."""
    return (
        BoardMark.objects.filter(ruleset=board.ruleset, week=board.week)
        .filter(Q(value__gte=value) & (Q(value__gt=value) | Q(value=value, user_id__lte=user_id)))
        .order_by("value", "-user_id")
        .first()
    )


def rank_at(board: Board, value: float, user_id: int) -> int:
    """The rank (1-based) a listed row at (value, user_id) has: the listed players ahead of
    the nearest milestone ahead of it at the last refresh, plus one COUNT of the entries from
    that milestone's position to the row (at most about ``MARK_EVERY`` of the board's index),
    less those of unlisted players. Above the first milestone (and on a board never
    refreshed) that COUNT starts at the top, so the rank is exact; below, it is exact as of
    the refresh for the part above the milestone (``marks_refresh``, beat, every
    ``LEADERBOARD_MARKS_SECONDS``): players who crossed it since move the rank by one each
    until the next refresh."""
    rows = board.rows().filter(board.ahead(value, user_id))
    start = 0
    mark = _mark_ahead(board, value, user_id)
    if mark is not None:
        # From the milestone's position (included: its player, or whoever is there now). The
        # redundant ``<= value`` bounds the index range there.
        f = board.value_field
        rows = rows.filter(
            Q(**{f"{f}__lte": mark.value})
            & (Q(**{f"{f}__lt": mark.value}) | Q(**{f: mark.value, "user_id__gte": mark.user_id}))
        )
        start = mark.ahead
    counts = (
        rows
        # Counting user_id (not the primary key) keeps every column the count reads in the
        # board's index, so the database answers it from the index alone.
        .aggregate(ahead=Count("user_id"), unlisted=Count("user_id", filter=unlisted()))
    )
    return 1 + start + counts["ahead"] - counts["unlisted"]


def marks_refresh(now: datetime | None = None) -> int:
    """Rebuild every board's milestones (beat): each ruleset's all-time board and this week's.
    One read of each board's index in its order; the board's old milestones are replaced in
    one transaction. Returns the number of milestones written."""
    now = now or timezone.now()
    written = 0
    for ruleset in sorted(engine.RULESETS):
        for period in PERIODS:
            board = board_for(ruleset, period, now)
            positions = (
                board.rows()
                .exclude(unlisted())
                .order_by(*board.order_by())
                .values_list(board.value_field, "user_id")
            )
            marks = [
                BoardMark(
                    ruleset=ruleset,
                    week=board.week,
                    value=value,
                    user_id=user_id,
                    ahead=index,
                    refreshed_at=now,
                )
                for index, (value, user_id) in enumerate(positions.iterator(chunk_size=5000))
                if (index + 1) % MARK_EVERY == 0
            ]
            with transaction.atomic():
                stale = BoardMark.objects.filter(ruleset=ruleset)
                if period == "all":
                    stale = stale.filter(week__isnull=True)
                else:
                    stale = stale.filter(week__isnull=False)
                stale.delete()
                BoardMark.objects.bulk_create(marks)
            written += len(marks)
    return written


def caller_entry(board: Board, user: User) -> dict[str, Any] | None:
    """The caller's own place on the board, or None when they are not on it."""
    row = board.rows().filter(user_id=user.pk).first()
    if row is None or board.rows().filter(unlisted(), pk=row.pk).exists():
        return None
    rank = rank_at(board, getattr(row, board.value_field), user.pk)
    rating = (
        row
        if board.period == "all"
        else Rating.objects.filter(user_id=user.pk, ruleset=board.ruleset).first()
    )
    return _entry(rank, user, rating, row if board.period == "week" else None)


def page_entries(board: Board, page: list[Any]) -> list[dict[str, Any]]:
    """Render a page of board rows (from ``listed``), ranked from the first one's rank."""
    if not page:
        return []
    first = page[0]
    start = rank_at(board, getattr(first, board.value_field), first.user_id)
    if board.period == "all":
        ratings = {row.user_id: row for row in page}
    else:
        ratings = {
            r.user_id: r
            for r in Rating.objects.filter(
                ruleset=board.ruleset, user_id__in=[row.user_id for row in page]
            )
        }
    return [
        _entry(
            start + i,
            row.user,
            ratings.get(row.user_id),
            row if board.period == "week" else None,
        )
        for i, row in enumerate(page)
    ]


def shown(value: float) -> float:
    """A rating as shown to people: the ordinal (mu - 3 sigma), to one decimal."""
    return round(value, 1)


def _entry(
    rank: int, user: User, rating: Rating | None, weekly: WeeklyGain | None
) -> dict[str, Any]:
    rated = rating.rated_matches if rating is not None else 0
    return {
        "rank": rank,
        "username": user.username,
        "display_name": user.display_name,
        "avatar": avatar_json(user),
        "rating": shown(rating.ordinal) if rating is not None else None,
        "rated_matches": rated,
        "provisional": rated < PROVISIONAL_BELOW,
        "gained": shown(weekly.gained) if weekly is not None else None,
        "matches_this_week": weekly.matches if weekly is not None else None,
    }
