"""Request parsing and response documentation for the match API.

Response serializers describe the dicts the selectors build (the schema clients generate code
from); names are unique module-wide because drf-spectacular turns them into components.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from accounts.api.serializers import UserViewSerializer
from core.serializers import StrictCharField, StrictRequestSerializer
from games import engine
from games.api.schema_enums import CARDS, PHASES, SUITS
from games.models import (
    Actor,
    BotLevel,
    EndReason,
    MatchStatus,
    Visibility,
)

# --- Requests -------------------------------------------------------------------------------


@extend_schema_field(
    {
        "type": "object",
        "description": 'Bot levels by seat: keys "1", "2" and "3" (the creator takes seat 0).',
        "properties": {
            str(seat): {"$ref": "#/components/schemas/BotLevelEnum"} for seat in (1, 2, 3)
        },
        "additionalProperties": False,
    },
    component_name="BotSeats",
)
class BotSeatsField(serializers.DictField):
    """Bot levels keyed by seat ("1"-"3"); any other key is refused (``invalid_seat``)."""

    child = serializers.ChoiceField(choices=BotLevel.choices)

    def to_internal_value(self, data: Any) -> dict[int, str]:
        value = super().to_internal_value(data)
        out: dict[int, str] = {}
        for key, level in value.items():
            if key not in ("1", "2", "3"):
                raise serializers.ValidationError(
                    "Bots may sit in seats 1, 2 and 3 only (the creator takes seat 0).",
                    code="invalid_seat",
                )
            out[int(key)] = level
        return out


class MatchCreateRequestSerializer(StrictRequestSerializer):
    ruleset = serializers.ChoiceField(
        choices=sorted(engine.RULESETS), default=engine.GAMERULES.name
    )
    target = serializers.IntegerField(min_value=1, max_value=10_000, default=152)
    turn_seconds = serializers.IntegerField(
        min_value=settings.BALOOT["MIN_TURN_SECONDS"],
        max_value=settings.BALOOT["MAX_TURN_SECONDS"],
        default=settings.BALOOT["DEFAULT_TURN_SECONDS"],
    )
    visibility = serializers.ChoiceField(choices=Visibility.choices, default=Visibility.PRIVATE)
    bots = BotSeatsField(
        required=False,
        default=dict,
        help_text='Bot levels for seats 1-3, e.g. {"1": "easy", "3": "normal"}.',
    )


class MatchJoinRequestSerializer(StrictRequestSerializer):
    seat = serializers.IntegerField(min_value=0, max_value=3, required=False, allow_null=True)
    code = StrictCharField(max_length=32, required=False, allow_blank=True)


class ProjectSerializer(StrictRequestSerializer):
    kind = serializers.ChoiceField(choices=[k.value for k in engine.ProjectKind])
    cards = serializers.ListField(
        child=serializers.ChoiceField(choices=CARDS), min_length=1, max_length=8
    )


class MoveRequestSerializer(StrictRequestSerializer):
    """A move, as in the record format's actions without ``seat``."""

    type = serializers.ChoiceField(choices=[t.value for t in engine.moves.MoveType])
    call = StrictCharField(
        required=False,
        help_text="bid: pass/hokum/sun/ashkal; double: pass/double/triple/four/gahwa",
    )
    suit = serializers.ChoiceField(choices=SUITS, required=False, allow_null=True)
    card = serializers.ChoiceField(choices=CARDS, required=False)
    projects = ProjectSerializer(many=True, required=False, max_length=4)
    expected_version = serializers.IntegerField(min_value=0, required=False, allow_null=True)

    _FIELDS_BY_TYPE = {
        "bid": ({"call"}, {"suit"}),
        "double": ({"call"}, set()),
        "declare": ({"projects"}, set()),
        "play": ({"card"}, set()),
    }
    _CALLS = {
        "bid": {c.value for c in engine.Call},
        "double": {c.value for c in engine.DoubleCall},
    }

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        move_type = attrs["type"]
        required, optional = self._FIELDS_BY_TYPE[move_type]
        present = {k for k in ("call", "suit", "card", "projects") if attrs.get(k) is not None}
        errors: dict[str, str] = {}
        for name in sorted(required - present):
            errors[name] = f"Required for a {move_type} move."
        for name in sorted(present - required - optional):
            errors[name] = f"Not allowed in a {move_type} move."
        call = attrs.get("call")
        if call is not None and move_type in self._CALLS and call not in self._CALLS[move_type]:
            errors["call"] = f"Not a {move_type} call."
        if errors:
            raise serializers.ValidationError(errors, code="invalid")
        return attrs


class SeatViewSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    display_name = serializers.CharField(allow_null=True)
    team = serializers.IntegerField()
    bot = serializers.ChoiceField(choices=BotLevel.choices, allow_null=True)
    away = serializers.BooleanField()
    empty = serializers.BooleanField()


class CallViewSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    type = serializers.CharField()
    call = serializers.CharField()
    suit = serializers.ChoiceField(choices=SUITS, required=False)


class ContractViewSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["hokum", "sun", "ashkal"])
    mode = serializers.ChoiceField(choices=["hokum", "sun"])
    trump = serializers.ChoiceField(choices=SUITS, allow_null=True)
    declarer = serializers.IntegerField()
    recipient = serializers.IntegerField()
    bidding_round = serializers.IntegerField()
    multiplier = serializers.IntegerField()
    gahwa = serializers.BooleanField()
    locked = serializers.BooleanField()


class TrickViewSerializer(serializers.Serializer):
    leader = serializers.IntegerField()
    cards = serializers.ListField(child=serializers.ChoiceField(choices=CARDS))
    winner = serializers.IntegerField()
    abnat = serializers.IntegerField()


class CurrentTrickSerializer(serializers.Serializer):
    leader = serializers.IntegerField()
    cards = serializers.ListField(child=serializers.ChoiceField(choices=CARDS))


class ProjectViewSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=[k.value for k in engine.ProjectKind])
    cards = serializers.ListField(child=serializers.ChoiceField(choices=CARDS))


class PublicProjectsSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    kinds = serializers.ListField(child=serializers.CharField())
    projects = ProjectViewSerializer(many=True, allow_null=True)


class LegalMoveSerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=[t.value for t in engine.moves.MoveType])
    call = serializers.CharField(required=False)
    suit = serializers.ChoiceField(choices=SUITS, required=False)
    card = serializers.ChoiceField(choices=CARDS, required=False)


class RoundViewSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    dealer = serializers.IntegerField()
    phase = serializers.ChoiceField(choices=PHASES)
    face_up = serializers.ChoiceField(choices=CARDS, allow_null=True)
    deck_commitment = serializers.CharField(allow_null=True)
    to_act = serializers.IntegerField(allow_null=True)
    deadline = serializers.DateTimeField(allow_null=True)
    hand = serializers.ListField(child=serializers.ChoiceField(choices=CARDS))
    card_counts = serializers.ListField(child=serializers.IntegerField())
    calls = CallViewSerializer(many=True)
    doubles = CallViewSerializer(many=True)
    contract = ContractViewSerializer(allow_null=True)
    doubler = serializers.IntegerField(allow_null=True)
    current_trick = CurrentTrickSerializer(allow_null=True)
    last_trick = TrickViewSerializer(allow_null=True)
    tricks_played = serializers.IntegerField()
    abnat = serializers.ListField(child=serializers.IntegerField())
    trick_counts = serializers.ListField(child=serializers.IntegerField())
    projects = PublicProjectsSerializer(many=True)
    baloot = serializers.ListField(child=serializers.IntegerField())
    legal_moves = LegalMoveSerializer(many=True)
    projects_available = ProjectViewSerializer(many=True)
    projects_suggested = ProjectViewSerializer(many=True)


class DeclaredProjectSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    kind = serializers.CharField()
    cards = serializers.ListField(child=serializers.ChoiceField(choices=CARDS))


class ProjectsResultSerializer(serializers.Serializer):
    declared = DeclaredProjectSerializer(many=True)
    awarded_team = serializers.IntegerField(allow_null=True)
    points = serializers.ListField(child=serializers.IntegerField())


class RoundResultSerializer(serializers.Serializer):
    abnat = serializers.ListField(child=serializers.IntegerField())
    card_points = serializers.ListField(child=serializers.IntegerField())
    projects = ProjectsResultSerializer()
    baloot = serializers.ListField(child=serializers.IntegerField())
    kaboot = serializers.IntegerField(allow_null=True)
    bidder_team = serializers.IntegerField(allow_null=True)
    bidder_failed = serializers.BooleanField()
    points = serializers.ListField(child=serializers.IntegerField())
    gahwa_winner = serializers.IntegerField(allow_null=True)


class SeatProjectsSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    projects = ProjectViewSerializer(many=True)


class FinishedRoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    dealer = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["complete", "redeal"])
    face_up = serializers.ChoiceField(choices=CARDS)
    contract = ContractViewSerializer(allow_null=True)
    tricks = TrickViewSerializer(many=True)
    declarations = SeatProjectsSerializer(many=True)
    result = RoundResultSerializer()
    scores_after = serializers.ListField(child=serializers.IntegerField())
    deck_commitment = serializers.CharField(allow_null=True)


class MatchViewSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=MatchStatus.choices)
    ruleset = serializers.CharField()
    rules_version = serializers.IntegerField()
    target = serializers.IntegerField()
    turn_seconds = serializers.IntegerField()
    visibility = serializers.ChoiceField(choices=Visibility.choices)
    invite_code = serializers.CharField(allow_null=True)
    version = serializers.IntegerField()
    scores = serializers.ListField(child=serializers.IntegerField())
    winner_team = serializers.IntegerField(allow_null=True)
    end_reason = serializers.ChoiceField(choices=EndReason.choices, allow_null=True)
    my_seat = serializers.IntegerField(allow_null=True)
    seats = SeatViewSerializer(many=True)
    created_at = serializers.DateTimeField()
    round = RoundViewSerializer(allow_null=True)
    previous_round = FinishedRoundSerializer(allow_null=True)


class MatchSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=MatchStatus.choices)
    visibility = serializers.ChoiceField(choices=Visibility.choices)
    version = serializers.IntegerField()
    scores = serializers.ListField(child=serializers.IntegerField())
    target = serializers.IntegerField()
    turn_seconds = serializers.IntegerField()
    my_seat = serializers.IntegerField(allow_null=True)
    is_my_turn = serializers.BooleanField()
    to_act = serializers.IntegerField(allow_null=True)
    deadline = serializers.DateTimeField(allow_null=True)
    seats = SeatViewSerializer(many=True)
    winner_team = serializers.IntegerField(allow_null=True)
    end_reason = serializers.ChoiceField(choices=EndReason.choices, allow_null=True)
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class LoggedProjectSerializer(serializers.Serializer):
    kind = serializers.CharField()
    cards = serializers.ListField(
        child=serializers.ChoiceField(choices=CARDS),
        allow_null=True,
        help_text="null for other seats until trick 1 of that round is complete",
    )


class MoveLogEntrySerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    version = serializers.IntegerField()
    round = serializers.IntegerField()
    seat = serializers.IntegerField()
    actor = serializers.ChoiceField(choices=Actor.choices)
    type = serializers.ChoiceField(choices=[t.value for t in engine.moves.MoveType])
    call = serializers.CharField(required=False)
    suit = serializers.ChoiceField(choices=SUITS, required=False)
    card = serializers.ChoiceField(choices=CARDS, required=False)
    projects = LoggedProjectSerializer(many=True, required=False)
    created_at = serializers.DateTimeField()


class MoveLogSerializer(serializers.Serializer):
    results = MoveLogEntrySerializer(many=True)
    next = serializers.URLField(allow_null=True)
    version = serializers.IntegerField()


class ScoreSheetRowSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    dealer = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["complete", "redeal"])
    contract = ContractViewSerializer(allow_null=True)
    abnat = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    card_points = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    projects = ProjectsResultSerializer(allow_null=True)
    baloot = serializers.ListField(child=serializers.IntegerField())
    kaboot = serializers.IntegerField(allow_null=True)
    bidder_team = serializers.IntegerField(allow_null=True)
    bidder_failed = serializers.BooleanField(allow_null=True)
    points = serializers.ListField(child=serializers.IntegerField())
    gahwa_winner = serializers.IntegerField(allow_null=True)
    totals = serializers.ListField(child=serializers.IntegerField())


class ScoreSheetSerializer(serializers.Serializer):
    results = ScoreSheetRowSerializer(many=True)
    next = serializers.URLField(allow_null=True)
    scores = serializers.ListField(child=serializers.IntegerField())


class RecordActionSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    type = serializers.CharField()
    call = serializers.CharField(required=False)
    suit = serializers.CharField(required=False)
    card = serializers.CharField(required=False)
    projects = ProjectViewSerializer(many=True, required=False)


class RecordRoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    deck = serializers.ListField(child=serializers.ChoiceField(choices=CARDS))
    salt = serializers.CharField()
    commitment = serializers.CharField()
    actions = RecordActionSerializer(many=True)


class RecordResultSerializer(serializers.Serializer):
    winner_team = serializers.IntegerField(allow_null=True)
    end_reason = serializers.ChoiceField(choices=EndReason.choices, allow_null=True)
    scores = serializers.ListField(child=serializers.IntegerField())


class RecordSerializer(serializers.Serializer):
    format = serializers.CharField()
    ruleset = serializers.CharField()
    rules_version = serializers.IntegerField()
    dealer = serializers.IntegerField()
    scores = serializers.ListField(child=serializers.IntegerField())
    target = serializers.IntegerField()
    rounds = RecordRoundSerializer(many=True)
    result = RecordResultSerializer(required=False)


class MatchCreatedSerializer(MatchViewSerializer):
    """The creator's view of the new match (``invite_code`` set when private)."""


# --- The caller's own pages (games.api.me) ------------------------------------------------


class PlayerStatsSerializer(serializers.Serializer):
    played = serializers.IntegerField(help_text="Matches started with you seated.")
    finished = serializers.IntegerField()
    won = serializers.IntegerField()
    lost = serializers.IntegerField()
    resigned = serializers.IntegerField()
    abandoned = serializers.IntegerField(help_text="Matches where your seat went away.")
    timeouts = serializers.IntegerField(help_text="Turns played for you when time ran out.")


class MeSerializer(UserViewSerializer):
    date_joined = serializers.DateTimeField()
    stats = PlayerStatsSerializer()


class InboxEntrySerializer(MatchSummarySerializer):
    pass
