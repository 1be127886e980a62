"""The match as a caller sees it (``games.selectors.views``) and one row of a match list.

These document the dicts the selectors build; names are unique across the package because
drf-spectacular turns them into components."""

from __future__ import annotations

from rest_framework import serializers

from games.api.schema_enums import CALLS, CARDS, PHASES, SUITS
from games.api.serializers.moves import PROJECT_KINDS, LegalMoveField, ProjectViewSerializer
from games.models import (
    BotLevel,
    EndReason,
    MatchStatus,
    Visibility,
)

COMMITMENT_HELP = (
    'Fair dealing: the lowercase hex SHA-256 of the UTF-8 text salt + ":" + the deck\'s 32 '
    'card names in dealing order joined by ",", where salt is 32 random hex characters. '
    "The round's record reveals deck and salt once the round is over."
)


class SeatViewSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    display_name = serializers.CharField(allow_null=True)
    team = serializers.IntegerField()
    bot = serializers.ChoiceField(choices=BotLevel.choices, allow_null=True)
    away = serializers.BooleanField()
    empty = serializers.BooleanField()


class CallViewSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    type = serializers.ChoiceField(choices=["bid", "double"])
    call = serializers.ChoiceField(choices=CALLS)
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


class PublicProjectsSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    kinds = serializers.ListField(child=serializers.ChoiceField(choices=PROJECT_KINDS))
    projects = ProjectViewSerializer(many=True, allow_null=True)


class RoundViewSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    dealer = serializers.IntegerField()
    phase = serializers.ChoiceField(choices=PHASES)
    face_up = serializers.ChoiceField(choices=CARDS, allow_null=True)
    deck_commitment = serializers.CharField(allow_null=True, help_text=COMMITMENT_HELP)
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
    legal_moves = serializers.ListField(
        child=LegalMoveField(),
        help_text=(
            "The caller's legal moves (empty when it is not their turn), each a body to POST "
            "to /moves as it is. While declaring is legal it holds one `declare` item, the "
            "suggested declaration (`projects_suggested`); any other choice from "
            "`projects_available` may be posted too."
        ),
    )
    projects_available = ProjectViewSerializer(many=True)
    projects_suggested = ProjectViewSerializer(many=True)


class DeclaredProjectSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=PROJECT_KINDS)
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
    deck_commitment = serializers.CharField(allow_null=True, help_text=COMMITMENT_HELP)


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


class MatchCreatedSerializer(MatchViewSerializer):
    """The creator's view of the new match (``invite_code`` set when private)."""
