"""A rank counts from the nearest milestone ahead (``BoardMark``, refreshed by beat) instead of
from the top: the same ranks as counting everyone ahead while nothing moved since the refresh,
unlisted players (deleted, banned) left out on both sides of a milestone, ties by account age;
and a count that stays within a milestone's distance at any depth."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import Sanction, SanctionKind, User
from players.models import BoardMark, Rating, WeeklyGain
from players.selectors import leaderboards as boards
from players.selectors.ratings import week_of
from players.tasks import refresh_leaderboard_marks

pytestmark = pytest.mark.django_db


@pytest.fixture
def crowd(monkeypatch: pytest.MonkeyPatch) -> list[User]:
    """60 rated players (ties included), one deleted and one banned; a milestone every 7."""
    monkeypatch.setattr(boards, "MARK_EVERY", 7)
    rng = random.Random(4)
    users = User.objects.bulk_create(
        User(username=f"p{i}", display_name=f"P {i}", password="!") for i in range(60)
    )
    week = week_of(timezone.now())
    for user in users:
        ordinal = float(rng.randrange(0, 20))  # many ties
        Rating.objects.create(user=user, ruleset="gamerules", ordinal=ordinal, rated_matches=12)
        WeeklyGain.objects.create(
            user=user, ruleset="gamerules", week=week, gained=ordinal / 2, matches=1
        )
    users[10].deleted_at = timezone.now()
    users[10].save(update_fields=["deleted_at"])
    Sanction.objects.create(
        user=users[20], kind=SanctionKind.BAN, reason="test", created_by=users[0]
    )
    return users


def _exact(board: boards.Board) -> list[tuple[int, int]]:
    """(rank, user id) of every listed player, from the board's order itself."""
    return [(i + 1, row.user_id) for i, row in enumerate(boards.listed(board))]


@pytest.mark.parametrize("period", boards.PERIODS)
def test_ranks_from_milestones_are_the_counted_ranks(crowd: list[User], period: Any) -> None:
    board = boards.board_for("gamerules", period)
    expected = _exact(board)
    assert len(expected) == 58
    assert refresh_leaderboard_marks.apply().get() > 0
    marks = BoardMark.objects.filter(ruleset="gamerules", week=board.week)
    assert [m.ahead + 1 for m in marks.order_by("ahead")] == [7, 14, 21, 28, 35, 42, 49, 56]
    for rank, user_id in expected:
        row = board.rows().get(user_id=user_id)
        assert boards.rank_at(board, getattr(row, board.value_field), user_id) == rank
    # A refresh replaces the milestones rather than adding to them.
    refresh_leaderboard_marks.apply()
    assert marks.count() == 8


def test_a_rank_counts_at_most_a_milestones_distance(crowd: list[User]) -> None:
    board = boards.board_for("gamerules", "all")
    boards.marks_refresh()
    last_rank, user_id = _exact(board)[-1]
    row = board.rows().get(user_id=user_id)
    with CaptureQueriesContext(connection) as queries:
        assert boards.rank_at(board, row.ordinal, user_id) == last_rank
    count = queries.captured_queries[-1]["sql"]
    # The COUNT starts at the last milestone's position, not at the top of the board.
    assert "COUNT" in count.upper()
    mark = BoardMark.objects.filter(week__isnull=True).order_by("-ahead").first()
    assert mark is not None and mark.ahead + 1 == 56
    counted = board.rows().filter(board.ahead(row.ordinal, user_id))
    counted = counted.exclude(board.ahead(mark.value, mark.user_id))
    assert counted.count() <= boards.MARK_EVERY + 2  # from the milestone on, unlisted included


def test_the_api_answers_the_same_ranks_with_milestones(crowd: list[User], anon: Any) -> None:
    before = anon.get("/api/v1/leaderboards/gamerules", {"page_size": 50}).json()
    boards.marks_refresh()
    after = anon.get("/api/v1/leaderboards/gamerules", {"page_size": 50}).json()
    assert before == after
    assert [row["rank"] for row in after["results"]] == list(range(1, 51))
