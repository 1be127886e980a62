"""The post-game analysis of a match (``games.selectors.analysis``)."""

from __future__ import annotations

from rest_framework import serializers

from games.api.serializers.moves import LegalMoveField
from games.models import AnalysisStatus, BotLevel


class AnalysedDecisionSerializer(serializers.Serializer):
    round = serializers.IntegerField(help_text="The round's number, from 1.")
    action = serializers.IntegerField(help_text="The move's index in the round, from 0.")
    seat = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["bid", "play"])
    chosen = LegalMoveField(help_text="The move made.")
    best = LegalMoveField(help_text="The move the search valued most (the chosen one if as good).")
    chosen_value = serializers.FloatField(
        help_text="Expected round-score margin for the seat's team after the chosen move."
    )
    best_value = serializers.FloatField(help_text="The same, after the best move.")
    loss = serializers.FloatField(help_text="best_value - chosen_value, never below 0.")
    options = serializers.IntegerField(help_text="Legal choices the move was made among.")


class AnalysedPlayerSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    display_name = serializers.CharField(allow_null=True)
    bot = serializers.ChoiceField(choices=BotLevel.choices, allow_null=True)
    decisions = serializers.IntegerField(
        help_text="Calls and card plays made among two or more legal choices."
    )
    mean_loss = serializers.FloatField(
        allow_null=True, help_text="Mean loss per decision, in round-score points."
    )
    accuracy = serializers.FloatField(
        allow_null=True,
        help_text="Percent: the mean over decisions of max(0, 1 - loss / 10).",
    )
    worst = AnalysedDecisionSerializer(
        many=True, help_text="The decisions that lost the most, at most 5, costliest first."
    )


class MatchAnalysisSerializer(serializers.Serializer):
    match_id = serializers.IntegerField()
    status = serializers.ChoiceField(
        choices=AnalysisStatus.choices,
        help_text="`pending` until the analysis is made (seconds to minutes after the end); "
        "an `analysis_ready` event on /ws/v1/me says when. `failed`: the match's log could "
        "not be replayed (a fault of ours), and it will not be tried again.",
    )
    seed = serializers.CharField(
        allow_null=True, help_text="What the search's deals are drawn from: reproducible."
    )
    play_samples = serializers.IntegerField(allow_null=True, help_text="Deals per card decision.")
    bid_samples = serializers.IntegerField(allow_null=True, help_text="Deals per call.")
    players = AnalysedPlayerSerializer(many=True, help_text="One per seat once `ready`.")
