"""A row of ``GET /matches/live``: a match summary (as a spectator sees it) and its start."""

from __future__ import annotations

from rest_framework import serializers

from games.api.serializers.match_view import MatchSummarySerializer

__all__ = ["LiveMatchSerializer"]


class LiveMatchSerializer(MatchSummarySerializer):
    # An active public match as a spectator sees it (``games.selectors.MatchRow`` with an
    # outsider's ``MatchHeader``): version, to_act and updated_at one complete trick behind.
    started_at = serializers.DateTimeField(source="match.started_at", allow_null=True)
