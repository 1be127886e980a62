"""Response bodies, each rendered by the one serializer that documents it.

The selectors return data (a ``MatchView``, log entries, match rows); these render it. Each
serializer is built once per process and only ever renders, so an answer costs its fields'
``to_representation`` and nothing of DRF's per-instance set-up.
"""

from __future__ import annotations

from typing import Any

from games import selectors
from games.api.serializers import MatchViewSerializer
from games.models import Match, Seat

_MATCH_VIEW = MatchViewSerializer()


def match_view(match: Match, seat: Seat | None) -> dict[str, Any]:
    """``GET /matches/{id}`` (and every write's answer) as ``seat`` (None: an outsider) sees it."""
    return _MATCH_VIEW.to_representation(selectors.match_view_data(match, seat))
