"""The match as a caller sees it (``games.selectors.views``) and one row of a match list.

They render what the selectors return (``games.selectors.views``, ``games.selectors.lists``),
so what the schema documents is what an answer holds; names are unique across the package
because drf-spectacular turns them into components."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import serializers
from rest_framework.fields import SkipField

from accounts.api.serializers import avatar_field
from games import engine
from games.api.schema_enums import CALLS, CARDS, RULESETS, SUITS
from games.api.serializers.fields import (
    CardField,
    CardSequenceField,
    CardSetField,
    EnumValueField,
    IntListField,
    OptionalSuitField,
    PerSeatField,
    PhaseField,
    ResponseSerializer,
    SeatHandsField,
    TeamPairField,
)
from games.api.serializers.moves import PROJECT_KINDS, LegalMoveField, ProjectViewSerializer
from games.engine.codec.record_format import contract_to_dict, result_to_dict
from games.models import (
    BotLevel,
    EndReason,
    MatchStatus,
    Seat,
    Visibility,
)
from games.selectors import seat_avatar, seat_display_name

COMMITMENT_HELP = (
    'Fair dealing: the lowercase hex SHA-256 of the UTF-8 text salt + ":" + the deck\'s 32 '
    'card names in dealing order joined by ",", where salt is 32 random hex characters. '
    "The round's record reveals deck and salt once the round is over."
)


class SeatViewSerializer(ResponseSerializer):
    # A seat (``games.models.Seat``) as every viewer sees it.

    seat = serializers.IntegerField(source="index")
    display_name = serializers.CharField(allow_null=True)
    avatar = avatar_field()
    team = serializers.IntegerField()
    bot = serializers.ChoiceField(choices=BotLevel.choices, allow_null=True)
    away = serializers.BooleanField()
    empty = serializers.BooleanField(source="is_empty")

    def to_representation(self, instance: Any) -> dict[str, Any]:
        return super().to_representation(_SeatRow(instance))


class _SeatRow:
    # A seat's public face: its shown name (the user's, a bot's, or none) and no bot as null.

    __slots__ = ("avatar", "away", "bot", "display_name", "index", "is_empty", "team")

    def __init__(self, seat: Seat) -> None:
        self.index = seat.index
        self.display_name = seat_display_name(seat)
        self.avatar = seat_avatar(seat)
        self.team = seat.team
        self.bot = seat.bot or None
        self.away = seat.away
        self.is_empty = seat.is_empty


class CallViewSerializer(ResponseSerializer):
    # A call of the bidding or the doubling: a ``(seat, engine.Bid | engine.Double)`` pair.

    seat = serializers.IntegerField()
    type = serializers.ChoiceField(choices=["bid", "double"])
    call = EnumValueField(choices=CALLS)
    suit = OptionalSuitField()

    def to_representation(self, instance: Any) -> dict[str, Any]:
        return super().to_representation(_Call(*instance))


class _Call:
    __slots__ = ("call", "seat", "suit", "type")

    def __init__(self, seat: int, move: engine.Bid | engine.Double) -> None:
        self.seat = seat
        self.type = "bid" if isinstance(move, engine.Bid) else "double"
        self.call = move.call
        self.suit = move.suit if isinstance(move, engine.Bid) else None


class ContractViewSerializer(ResponseSerializer):
    # A contract in the record format's shape (``engine.contract_to_dict``, or as a round row
    # stores it).

    kind = serializers.ChoiceField(choices=["hokum", "sun", "ashkal"])
    mode = serializers.ChoiceField(choices=["hokum", "sun"])
    trump = serializers.ChoiceField(choices=SUITS, allow_null=True)
    declarer = serializers.IntegerField()
    recipient = serializers.IntegerField()
    bidding_round = serializers.IntegerField()
    multiplier = serializers.IntegerField()
    gahwa = serializers.BooleanField()
    locked = serializers.BooleanField()

    def get_attribute(self, instance: Any) -> Any:
        # Over an engine.Observation or engine.RoundLog, which hold the contract, its
        # multiplier, Gahwa and lock side by side: the record format's shape, null while
        # there is no contract. A round row's stored contract is that shape already.
        holder = super().get_attribute(instance)
        if holder is None or isinstance(holder, Mapping):
            return holder
        return contract_to_dict(holder.contract, holder.multiplier, holder.gahwa, holder.locked)


class TrickViewSerializer(ResponseSerializer):
    # A closed trick (``engine.Trick``).

    leader = serializers.IntegerField()
    cards = CardSequenceField()
    winner = serializers.IntegerField()
    abnat = serializers.IntegerField()


class CurrentTrickSerializer(ResponseSerializer):
    # The trick being played: an observation's leader and cards so far (null outside play).

    leader = serializers.IntegerField()
    cards = CardSequenceField(source="trick")


class PublicProjectsSerializer(ResponseSerializer):
    # A seat's declaration (``engine.PublicDeclaration``): the cards null while hidden.

    seat = serializers.IntegerField()
    kinds = serializers.ListField(child=serializers.ChoiceField(choices=PROJECT_KINDS))
    projects = ProjectViewSerializer(many=True, allow_null=True)


REVEALED_HELP = (
    "`saudi` only, present once a Sawa ended the round (rules S24): the cards each seat "
    "(0-3) still held then, public to everyone. Absent otherwise."
)


class RevealedHandsField(SeatHandsField):
    """The hands a Sawa revealed, one card list per seat; the key is left out when there are
    none, so a `gamerules` answer never carries it (S2)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("help_text", REVEALED_HELP)
        super().__init__(required=False, **kwargs)

    def get_attribute(self, instance: Any) -> Any:
        value = super().get_attribute(instance)
        if value is None:
            raise SkipField()
        return value


class SawaResultSerializer(ResponseSerializer):
    # A round's Sawa (S25): who called it and whether the claim held. The key is present in
    # every result of a ruleset with Sawa (null when nobody called it), absent otherwise.

    seat = serializers.IntegerField()
    valid = serializers.BooleanField()

    def get_attribute(self, instance: Any) -> Any:
        if isinstance(instance, Mapping):
            if "sawa" not in instance:
                raise SkipField()
            return instance["sawa"]
        if not getattr(instance, "with_sawa", False):
            raise SkipField()
        return super().get_attribute(instance)


SAWA_HELP = (
    "`saudi` only (rules S25): null, or who called Sawa (`seat`) and whether the claim held "
    "(`valid`). Absent in `gamerules`."
)


class RoundViewSerializer(ResponseSerializer):
    # A round as one viewer sees it (``games.selectors.RoundView``): every card it shows comes
    # from the engine's observation for that viewer.

    phase = PhaseField(source="obs.phase")
    number = serializers.IntegerField(source="obs.round_no")
    dealer = serializers.IntegerField(source="obs.dealer")
    face_up = CardField(source="obs.face_up", allow_null=True)
    to_act = serializers.IntegerField(allow_null=True)
    hand = CardSetField(source="obs.hand")
    card_counts = PerSeatField(source="obs.card_counts")
    calls = CallViewSerializer(many=True, source="obs.calls")
    doubles = CallViewSerializer(many=True, source="obs.doubles")
    contract = ContractViewSerializer(source="obs", allow_null=True)
    doubler = serializers.IntegerField(source="obs.doubler", allow_null=True)
    current_trick = CurrentTrickSerializer(allow_null=True)
    last_trick = TrickViewSerializer(allow_null=True)
    tricks_played = serializers.IntegerField()
    abnat = TeamPairField(source="obs.abnat")
    trick_counts = TeamPairField(source="obs.trick_counts")
    projects = PublicProjectsSerializer(many=True, source="obs.declarations")
    baloot = IntListField(source="obs.baloot")
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
    deadline = serializers.DateTimeField(allow_null=True)
    deck_commitment = serializers.CharField(allow_null=True, help_text=COMMITMENT_HELP)
    revealed_hands = RevealedHandsField(source="obs.revealed_hands")


class DeclaredProjectSerializer(ResponseSerializer):
    seat = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=PROJECT_KINDS)
    cards = serializers.ListField(child=serializers.ChoiceField(choices=CARDS))


class ProjectsResultSerializer(ResponseSerializer):
    declared = DeclaredProjectSerializer(many=True)
    awarded_team = serializers.IntegerField(allow_null=True)
    points = TeamPairField()


class RoundResultSerializer(ResponseSerializer):
    # A round's result in the record format's shape (``engine.result_to_dict``, or as a round
    # row stores it).

    abnat = TeamPairField()
    card_points = TeamPairField()
    projects = ProjectsResultSerializer()
    baloot = IntListField()
    kaboot = serializers.IntegerField(allow_null=True)
    bidder_team = serializers.IntegerField(allow_null=True)
    bidder_failed = serializers.BooleanField()
    points = TeamPairField()
    gahwa_winner = serializers.IntegerField(allow_null=True)
    sawa = SawaResultSerializer(allow_null=True, required=False, help_text=SAWA_HELP)

    def get_attribute(self, instance: Any) -> Any:
        # Over an engine.RoundResult: the record format's shape (engine.result_to_dict); a
        # finished round's view gives that shape already (with `sawa` where the ruleset has it).
        result = super().get_attribute(instance)
        if result is None or isinstance(result, Mapping):
            return result
        return result_to_dict(result)


class SeatProjectsSerializer(ResponseSerializer):
    # The projects one seat declared: a ``(seat, projects)`` pair of a round's result.

    seat = serializers.IntegerField()
    projects = ProjectViewSerializer(many=True)

    def to_representation(self, instance: Any) -> dict[str, Any]:
        seat, projects = instance
        return super().to_representation({"seat": seat, "projects": projects})


class FinishedRoundSerializer(ResponseSerializer):
    # A finished round (``games.selectors.FinishedRoundView``), all public by now.

    number = serializers.IntegerField(source="log.number")
    dealer = serializers.IntegerField(source="log.dealer")
    face_up = CardField()
    status = EnumValueField(choices=["complete", "redeal"], source="log.status")
    contract = ContractViewSerializer(source="log", allow_null=True)
    tricks = TrickViewSerializer(many=True, source="log.tricks")
    result = RoundResultSerializer()
    declarations = SeatProjectsSerializer(many=True, source="log.result.declared")
    scores_after = TeamPairField(source="log.scores_after")
    deck_commitment = serializers.CharField(allow_null=True, help_text=COMMITMENT_HELP)
    revealed_hands = RevealedHandsField()


RATED_HELP = (
    "Whether the result moves ratings: as the table was created (quick play is rated), "
    "false from the start when a bot sits at it or its opponents have had their rated "
    "matches of the day. A rated match that ends before its first round is played out "
    "moves no rating."
)


class MatchViewSerializer(ResponseSerializer):
    # The match as one caller sees it (``games.selectors.MatchView``, made from the caller's
    # ``games.selectors.ViewedMatch``).

    id = serializers.IntegerField(source="match.id")
    status = serializers.ChoiceField(choices=MatchStatus.choices, source="match.status")
    ruleset = EnumValueField(choices=RULESETS, source="match.ruleset")
    rules_version = serializers.IntegerField(source="match.rules_version")
    target = serializers.IntegerField(source="match.target")
    turn_seconds = serializers.IntegerField(source="match.turn_seconds")
    visibility = serializers.ChoiceField(choices=Visibility.choices, source="match.visibility")
    rated = serializers.BooleanField(source="match.rated", help_text=RATED_HELP)
    invite_code = serializers.CharField(allow_null=True)
    version = serializers.IntegerField(source="match.version")
    scores = TeamPairField(source="match.scores")
    winner_team = serializers.IntegerField(source="match.winner_team", allow_null=True)
    end_reason = serializers.ChoiceField(choices=EndReason.choices, allow_null=True)
    my_seat = serializers.IntegerField(allow_null=True)
    seats = SeatViewSerializer(many=True)
    created_at = serializers.DateTimeField(source="match.created_at")
    round = RoundViewSerializer(allow_null=True)
    previous_round = FinishedRoundSerializer(allow_null=True)


class MatchSummarySerializer(ResponseSerializer):
    # One match of a list as one user sees it (``games.selectors.MatchRow``).
    id = serializers.IntegerField(source="match.id")
    status = serializers.ChoiceField(choices=MatchStatus.choices, source="match.status")
    ruleset = EnumValueField(choices=RULESETS, source="match.ruleset")
    visibility = serializers.ChoiceField(choices=Visibility.choices, source="match.visibility")
    rated = serializers.BooleanField(source="match.rated", help_text=RATED_HELP)
    version = serializers.IntegerField(source="match.version")
    scores = TeamPairField(source="match.scores")
    target = serializers.IntegerField(source="match.target")
    turn_seconds = serializers.IntegerField(source="match.turn_seconds")
    my_seat = serializers.IntegerField(allow_null=True)
    is_my_turn = serializers.BooleanField()
    to_act = serializers.IntegerField(allow_null=True)
    deadline = serializers.DateTimeField(allow_null=True)
    seats = SeatViewSerializer(many=True)
    winner_team = serializers.IntegerField(source="match.winner_team", allow_null=True)
    end_reason = serializers.ChoiceField(choices=EndReason.choices, allow_null=True)
    created_at = serializers.DateTimeField(source="match.created_at")
    updated_at = serializers.DateTimeField(source="match.updated_at")


class MatchCreatedSerializer(MatchViewSerializer):
    """The creator's view of the new match (``invite_code`` set when private)."""
