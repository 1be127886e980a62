"""Checking that a match's move log is whole: nothing lost, nothing doubled, and its replay
equal to the stored snapshot."""

from __future__ import annotations

from games.models import Match, Move, Round
from games.replay import state_from_log


def assert_log_is_whole(match_id: int) -> None:
    """Nothing lost, nothing doubled: seq without gaps, one move per version, every round
    numbered once, and the replay of the log equal to the stored snapshot."""
    match = Match.objects.get(pk=match_id)
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
