"""Lists of matches: the caller's, the lobby, the inbox in its order, and one row of each."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from django.db.models import Case, F, IntegerField, Q, QuerySet, Value, When
from django.db.models.functions import Coalesce

from accounts.models import User
from games.models import Match, MatchStatus, Seat, Visibility
from games.selectors.viewing import MatchHeader, match_header, outsider_headers


def matches_visible_to(user: User) -> QuerySet[Match]:
    return Match.objects.filter(Q(seats__user=user) | Q(visibility=Visibility.PUBLIC)).distinct()


def live_matches() -> QuerySet[Match]:
    """Active public matches, for spectators (``GET /matches/live``)."""
    return Match.objects.filter(status=MatchStatus.ACTIVE, visibility=Visibility.PUBLIC)


def lobby() -> QuerySet[Match]:
    return Match.objects.filter(
        status=MatchStatus.WAITING,
        visibility=Visibility.PUBLIC,
        seats__user__isnull=True,
        seats__bot="",
    ).distinct()


_NO_DEADLINE = datetime(9999, 12, 31, tzinfo=UTC)


def inbox_for(user: User) -> QuerySet[Match]:
    """The caller's matches: their turn first, then by deadline, then most recent."""
    return (
        Match.objects.filter(seats__user=user)
        .annotate(
            my_seat_index=F("seats__index"),
            is_my_turn=Case(
                When(
                    Q(status=MatchStatus.ACTIVE, to_act=F("seats__index"), seats__away=False),
                    then=Value(1),
                ),
                default=Value(0),
                output_field=IntegerField(),
            ),
            # Matches without a deadline (waiting, over) sort after every deadline on every
            # database (SQLite puts NULLs first in ascending order, PostgreSQL last).
            deadline_order=Coalesce("deadline", Value(_NO_DEADLINE)),
        )
        .prefetch_related("seats__user")
    )


@dataclass(frozen=True, slots=True)
class MatchRow:
    """One match in a list, as one user sees it: the match's header at their cut, their seat
    and whether it is their turn."""

    match: MatchHeader
    seats: list[Seat]
    my_seat: int | None
    is_my_turn: bool

    @property
    def to_act(self) -> int | None:
        return self.match.to_act if self.match.status == MatchStatus.ACTIVE else None

    @property
    def deadline(self) -> datetime | None:
        # Only the player whose turn it is is shown the turn's deadline.
        return self.match.deadline if self.is_my_turn else None

    @property
    def end_reason(self) -> str | None:
        return self.match.end_reason or None


def match_row(match: Match, user: User) -> MatchRow:
    return match_rows([match], user)[0]


def match_rows(matches: Iterable[Match], user: User) -> list[MatchRow]:
    """Rows of a list as ``user`` sees them, their seats prefetched (``seats__user``). A
    spectator's rows say no more than their view: version, to_act and updated_at as of the
    cut (selectors ``spectating``), all the list's cuts read at once (``outsider_headers``)."""
    listed = [(match, list(match.seats.all())) for match in matches]
    mine = [next((s for s in seats if s.user_id == user.pk), None) for _, seats in listed]
    # An outsider's rows are at their cuts, all read at once; a seated player's as they are.
    outsiders = [match for (match, _), seat in zip(listed, mine, strict=True) if seat is None]
    outside = iter(outsider_headers(outsiders))
    headers = [
        next(outside) if seat is None else match_header(match, seated=True)
        for (match, _), seat in zip(listed, mine, strict=True)
    ]
    rows = []
    for (match, seats), seat, shown in zip(listed, mine, headers, strict=True):
        # The inbox annotates the row with it; other lists work it out from the seat.
        my_turn = bool(getattr(match, "is_my_turn", 0))
        if not hasattr(match, "is_my_turn") and seat is not None:
            my_turn = (
                match.status == MatchStatus.ACTIVE and match.to_act == seat.index and not seat.away
            )
        rows.append(MatchRow(shown, seats, seat.index if seat else None, my_turn))
    return rows
