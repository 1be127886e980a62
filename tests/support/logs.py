"""Checking that a match's move log is whole: nothing lost, nothing doubled, and its replay
equal to the stored snapshot."""

from __future__ import annotations

from django.db import transaction

from games.models import Match, Move, Round
from games.replay import state_from_log


def assert_log_is_whole(match_id: int) -> None:
    """Nothing lost, nothing doubled: seq without gaps, one move per version, every round
    numbered once, and the replay of the log equal to the stored snapshot.

    Everything is read under the match's row lock (on SQLite, the write lock), as a move is
    written: a worker still playing the match would otherwise commit between two of these
    reads, and the snapshot read first would lag the log read after it."""
    with transaction.atomic():
        _assert_log_is_whole(Match.objects.select_for_update().get(pk=match_id))


def _assert_log_is_whole(match: Match) -> None:
    moves = list(Move.objects.filter(match=match).order_by("seq"))
    assert [m.seq for m in moves] == list(range(1, len(moves) + 1)), "gap or duplicate in seq"
    versions = [m.version for m in moves]
    assert len(set(versions)) == len(versions), "two moves share a version"
    assert versions == sorted(versions), "versions out of order"
    assert all(v <= match.version for v in versions)
    assert match.move_count == len(moves)
    numbers = list(Round.objects.filter(match=match).values_list("number", flat=True))
    assert sorted(numbers) == list(range(1, len(numbers) + 1)), numbers
    assert state_from_log(match) == match.load_state(), "snapshot differs from the log replay"
