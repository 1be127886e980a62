"""The match resource, ``/matches``: one router entry (``MatchViewSet``), its actions in one
module per part of the resource:

- ``matches``: create, list, the lobby (``open``), live matches (``live``), one match, join,
  leave, resign, back
- ``moves``: make a move (``Idempotency-Key`` retries), read the move log
- ``records``: the score sheet (``rounds``), round and match records

Beside the router, with paths of their own (baloot_site/urls.py): ``table`` (a waiting table's
bots, ``/matches/{id}/bots``) and ``me`` (the caller's profile and inbox); a match's chat,
invitations, rematch and reports are served by players' and moderation's views.

The views are thin: they parse input, call services and selectors, and render. Every refusal is
raised as an exception and rendered by ``baloot_site.errors`` in the one problem-details shape.
Game state is written only by ``games.services``; the API's one write of its own is a move's
stored answer for its retries (``games.api.idempotency``, under the row lock the move takes).
"""

from __future__ import annotations

from games.api import serializers as s
from games.api.analysis import AnalysisResource
from games.api.matches import MatchesResource
from games.api.moves import MovesResource
from games.api.pagination import NewestFirstCursor
from games.api.records import RecordsResource
from games.models import Match


class MatchViewSet(MovesResource, RecordsResource, AnalysisResource, MatchesResource):
    """``/matches``: create, list, the lobby, live matches, the per-seat view, join, leave,
    resign, back, moves and records (``MatchesResource``, ``MovesResource``,
    ``RecordsResource``); the throttle scope follows the action."""

    queryset = Match.objects.all()
    pagination_class = NewestFirstCursor
    serializer_class = s.MatchSummarySerializer
    _SCOPES = {
        "create": "match_create",
        "join": "join",
        "moves": "moves",
        "leave": "join",
        "resign": "join",
        "back": "join",
    }

    @property
    def throttle_scope(self) -> str:  # read by ScopedRateThrottle, per action
        if self.action == "moves" and self.request.method == "GET":
            return "reads"
        return self._SCOPES.get(self.action or "", "reads")
