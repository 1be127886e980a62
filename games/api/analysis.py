"""``GET /matches/{id}/analysis``: the post-game analysis of a finished match."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.authentication import request_user
from core import docs
from games import selectors
from games.api.common import MATCH_ID, match_pk
from games.api.serializers.analysis import MatchAnalysisSerializer
from games.errors import MatchNotFinished
from games.models import MatchStatus
from games.selectors.analysis import analysis_json

_WORST = {
    "round": 3,
    "action": 17,
    "seat": 1,
    "kind": "play",
    "chosen": {"type": "play", "card": "AS"},
    "best": {"type": "play", "card": "7S"},
    "chosen_value": -4.5,
    "best_value": 6.25,
    "loss": 10.75,
    "options": 3,
}
READY = OpenApiExample(
    "Ready",
    value={
        "match_id": 42,
        "status": "ready",
        "seed": "match-42",
        "play_samples": 16,
        "bid_samples": 32,
        "players": [
            {
                "seat": 1,
                "display_name": "Faisal",
                "bot": None,
                "decisions": 61,
                "mean_loss": 0.72,
                "accuracy": 93.4,
                "worst": [_WORST],
            }
        ],
    },
    response_only=True,
)


class AnalysisResource(viewsets.GenericViewSet):
    """``/matches/{id}/analysis`` (composed into ``MatchViewSet``)."""

    @extend_schema(
        operation_id="matches_analysis_retrieve",
        parameters=[MATCH_ID],
        responses={
            200: OpenApiResponse(MatchAnalysisSerializer, examples=[READY]),
            **docs.errors((409, "The match has not ended (`match_not_finished`).")),
        },
        summary="The post-game analysis: every decision valued, per player",
        description="Once a match has ended, each seat's calls and card plays (where it had a "
        "choice) are valued by the hard bot's search from that seat's own view of the table "
        "(never a card it could not see), with a fixed number of deals drawn from a seed "
        "derived from the match: the same match always gets the same analysis. Per player: "
        "the mean loss per decision (round-score points given up against the best move), "
        "an accuracy percentage, and the costliest decisions. Seated players may read it, "
        "anyone a public match's. `pending` until it is made; `analysis_ready` on "
        "/ws/v1/me says when.",
    )
    @action(detail=True, methods=["get"])
    def analysis(self, request: Request, pk: str) -> Response:
        match, _ = selectors.match_for_viewer(match_pk(pk), request_user(request))
        if match.status not in (MatchStatus.FINISHED, MatchStatus.ABORTED):
            raise MatchNotFinished()
        return Response(MatchAnalysisSerializer(analysis_json(match)).data)
