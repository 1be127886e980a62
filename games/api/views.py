"""Match endpoints: thin views that parse input, call one service or selector, and render.

Every refusal is raised as an exception and rendered by ``baloot_site.errors`` in the one
problem-details shape; nothing here writes to the database directly. One router entry
(``/matches``) serves them all; each resource's actions live in their own module:

- ``matches``: create, list, the lobby, one match, join, leave, resign, back
- ``moves``: make a move, read the move log
- ``records``: the score sheet, round and match records
- ``me`` (its own views): the caller's profile and inbox
"""

from __future__ import annotations

from games.api import serializers as s
from games.api.matches import MatchesResource
from games.api.moves import MovesResource
from games.api.pagination import NewestFirstCursor
from games.api.records import RecordsResource
from games.models import Match


class MatchViewSet(MovesResource, RecordsResource, MatchesResource):
    """Matches: create, list, lobby, join/leave/resign, the per-seat view, moves and records."""

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
