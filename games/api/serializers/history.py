"""What has happened: the move log, the score sheet and the records."""

from __future__ import annotations

from rest_framework import serializers

from core.serializers import ConstField
from games import engine
from games.api.schema_enums import CALLS, CARDS, RULESETS, SUITS
from games.api.serializers.fields import ResponseSerializer, TeamPairField
from games.api.serializers.match_view import (
    COMMITMENT_HELP,
    SAWA_HELP,
    ContractViewSerializer,
    ProjectsResultSerializer,
    ProjectViewSerializer,
    SawaResultSerializer,
)
from games.api.serializers.moves import MoveLogEntryField
from games.engine.record import FORMAT as RECORD_FORMAT
from games.models import EndReason


class MoveLogSerializer(ResponseSerializer):
    results = serializers.ListField(child=MoveLogEntryField())
    next = serializers.URLField(allow_null=True)
    version = serializers.IntegerField()


class ScoreSheetRowSerializer(ResponseSerializer):
    # A line of the score sheet (``games.selectors.ScoreSheetRow``).
    number = serializers.IntegerField()
    dealer = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["complete", "redeal"])
    contract = ContractViewSerializer(allow_null=True)
    abnat = TeamPairField(allow_null=True)
    card_points = TeamPairField(allow_null=True)
    projects = ProjectsResultSerializer(allow_null=True)
    baloot = serializers.ListField(child=serializers.IntegerField())
    kaboot = serializers.IntegerField(allow_null=True)
    bidder_team = serializers.IntegerField(allow_null=True)
    bidder_failed = serializers.BooleanField(allow_null=True)
    points = TeamPairField()
    gahwa_winner = serializers.IntegerField(allow_null=True)
    sawa = SawaResultSerializer(allow_null=True, required=False, help_text=SAWA_HELP)
    totals = TeamPairField()


class ScoreSheetSerializer(ResponseSerializer):
    results = ScoreSheetRowSerializer(many=True)
    next = serializers.URLField(allow_null=True)
    scores = TeamPairField()


class RecordActionSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    type = serializers.ChoiceField(choices=[t.value for t in engine.moves.MoveType])
    call = serializers.ChoiceField(choices=CALLS, required=False)
    suit = serializers.ChoiceField(choices=SUITS, required=False)
    card = serializers.ChoiceField(choices=CARDS, required=False)
    projects = ProjectViewSerializer(many=True, required=False)
    locked = serializers.BooleanField(
        required=False, help_text="`saudi` Hokum `double`/`four` only: closed (true) or open."
    )


class RecordRoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    deck = serializers.ListField(
        child=serializers.ChoiceField(choices=CARDS), min_length=32, max_length=32
    )
    salt = serializers.CharField()
    commitment = serializers.CharField(help_text=COMMITMENT_HELP)
    actions = RecordActionSerializer(many=True)


class RecordResultSerializer(serializers.Serializer):
    winner_team = serializers.IntegerField(allow_null=True)
    end_reason = serializers.ChoiceField(choices=EndReason.choices, allow_null=True)
    scores = TeamPairField()


class RecordSerializer(serializers.Serializer):
    format = ConstField(RECORD_FORMAT)
    ruleset = serializers.ChoiceField(choices=RULESETS)
    rules_version = serializers.IntegerField()
    dealer = serializers.IntegerField()
    scores = TeamPairField()
    target = serializers.IntegerField()
    rounds = RecordRoundSerializer(many=True)
    result = RecordResultSerializer(required=False)
