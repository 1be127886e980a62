"""Whether a rated table may count for ratings (issue 23, rating farming).

A rated table stays rated when it starts only if four humans sit at it and no two accounts on
opposite teams have already met as opponents in ``BALOOT["RATED_MEETINGS_PER_DAY"]`` rated
matches that started in the 24 hours before it. The limit is on each pair of opponents rather
than on the set of four: a farmer who rotates partners or spare accounts through the table
makes a new set of four every time, but keeps meeting the same opponents, and each match
spends four of those pairs' meetings at once.

Every rated start in the window counts, whether it is still being played or has ended
without moving ratings (a match must count while it is in progress, or one line-up could
start ten tables at once); an aborted match does not. The check runs when the match starts
(``games.services.state.match_start``, so the table shows ``rated: false`` from its first
moment) and again when it finishes (``players.services.ratings``), counting only the matches
that started before it: two tables of the same players started in the same instant on
PostgreSQL do not see each other's uncommitted start, but they do by the time either ends.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Q

from games.models import Match, MatchStatus, Seat

WINDOW = timedelta(hours=24)


def opposing_pairs(roster: Mapping[int, int]) -> set[frozenset[int]]:
    """The four pairs of accounts on opposite teams, from ``roster`` (seat -> user id)."""
    return {
        frozenset((roster[a], roster[b]))
        for a in (0, 2)
        for b in (1, 3)
        if a in roster and b in roster
    }


def rated_meetings(
    *, match_id: int, started_at: datetime, roster: Mapping[int, int]
) -> dict[frozenset[int], list[int]]:
    """For each pair of opponents of ``roster``, the ids of the other rated matches, started in
    the 24 hours up to ``started_at`` and before this one, in which they were opponents."""
    pairs = opposing_pairs(roster)
    earlier = Q(match__started_at__lt=started_at) | Q(
        match__started_at=started_at, match_id__lt=match_id
    )
    rows = (
        Seat.objects.filter(
            earlier,
            user_id__in=set(roster.values()),
            match__rated=True,
            match__started_at__gte=started_at - WINDOW,
        )
        .exclude(match__status=MatchStatus.ABORTED)
        .exclude(match_id=match_id)
        .values_list("match_id", "user_id", "index")
    )
    teams: defaultdict[int, dict[int, int]] = defaultdict(dict)
    for other, user_id, index in rows:
        teams[other][user_id] = index % 2
    met: dict[frozenset[int], list[int]] = {pair: [] for pair in pairs}
    for other, sides in sorted(teams.items()):
        for pair in pairs:
            a, b = tuple(pair)
            if a in sides and b in sides and sides[a] != sides[b]:
                met[pair].append(other)
    return met


def meetings_used_up(*, match_id: int, started_at: datetime, roster: Mapping[int, int]) -> bool:
    """Whether some pair of opponents of ``roster`` has had its rated meetings of the day."""
    limit = settings.BALOOT["RATED_MEETINGS_PER_DAY"]
    met = rated_meetings(match_id=match_id, started_at=started_at, roster=roster)
    return any(len(ids) >= limit for ids in met.values())


def rated_start_allowed(match: Match) -> bool:
    """Whether a rated table starting now (``started_at`` set, seats filled) stays rated:
    four humans and no pair of opponents over the day's limit."""
    seats = match.seat_list()
    if len(seats) != 4 or any(s.user_id is None or s.bot for s in seats):
        return False
    assert match.started_at is not None
    roster = {s.index: s.user_id for s in seats if s.user_id is not None}
    return not meetings_used_up(match_id=match.pk, started_at=match.started_at, roster=roster)
