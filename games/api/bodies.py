"""Response bodies, each rendered by the one serializer that documents it.

The selectors return data (a ``MatchView``, log entries, match rows), each made from what its
viewer may see (a ``ViewedMatch``, a ``MatchHeader``); these render it. Each
serializer is built once per process and only ever renders, so an answer costs its fields'
``to_representation`` and nothing of DRF's per-instance set-up.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from accounts.models import User
from games import selectors
from games.api.serializers import (
    MatchSummarySerializer,
    MatchViewSerializer,
    MoveLogEntryField,
    MoveLogSerializer,
    ScoreSheetSerializer,
)
from games.models import Match

_MATCH_VIEW = MatchViewSerializer()
_LOG_ENTRY = MoveLogEntryField()
_MOVE_LOG = MoveLogSerializer()
_SUMMARY = MatchSummarySerializer()
_SCORE_SHEET = ScoreSheetSerializer()


def match_view(viewed: selectors.ViewedMatch) -> dict[str, Any]:
    """``GET /matches/{id}`` (and every write's answer) as its viewer (``viewed.seat``, None:
    an outsider) sees it."""
    return _MATCH_VIEW.to_representation(selectors.match_view_data(viewed))


def move_log(viewed: selectors.ViewedMatch, after: int, limit: int) -> list[dict[str, Any]]:
    """At most ``limit`` entries of the move log after version ``after``, as its viewer sees
    them (the items of ``GET /matches/{id}/moves``)."""
    return [
        _LOG_ENTRY.to_representation(e) for e in selectors.move_log_entries(viewed, after, limit)
    ]


def declarations_revealed(
    viewed: selectors.ViewedMatch, after: int, until: int
) -> list[tuple[int, int, list[dict[str, Any]]]]:
    """The declarations whose cards became public to the viewer with a move at a version in
    ``(after, until]`` (``selectors.declarations_revealed``), each round's as a triple: the
    version of the move that made them public, the version of the first of them, and the items
    of GET /matches/{id}/moves that show them now."""
    return [
        (r.version, r.first, [_LOG_ENTRY.to_representation(e) for e in r.entries])
        for r in selectors.declarations_revealed(viewed, after, until)
    ]


def move_log_page(
    entries: list[selectors.LogEntry], next_url: str | None, version: int
) -> dict[str, Any]:
    """A page of ``GET /matches/{id}/moves``."""
    return _MOVE_LOG.to_representation({"results": entries, "next": next_url, "version": version})


def match_summaries(matches: Iterable[Match], user: User) -> list[dict[str, Any]]:
    """Rows of a match list (the inbox, the caller's matches, the lobby) as ``user`` sees them."""
    return [_SUMMARY.to_representation(row) for row in selectors.match_rows(matches, user)]


def score_sheet_page(
    rows: list[selectors.ScoreSheetRow], next_url: str | None, scores: list[int]
) -> dict[str, Any]:
    """A page of ``GET /matches/{id}/rounds``."""
    return _SCORE_SHEET.to_representation({"results": rows, "next": next_url, "scores": scores})
