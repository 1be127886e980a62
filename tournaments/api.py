"""``/tournaments``: listing, creating and reading tournaments, entering them, the standings
and the rounds (docs/tournaments.md; the services explain the rules)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.authentication import request_user
from accounts.models import User
from core import docs
from core.errors import InvalidField
from core.parsing import ascii_integer, refuse_body, validated_body
from core.serializers import StrictBooleanField, StrictCharField, StrictRequestSerializer
from games import engine
from games.api.schema_enums import RULESETS
from players.api.common import PersonSerializer
from players.selectors.social import user_by_username
from tournaments import selectors
from tournaments.errors import EntryNotFound, TournamentNotFound
from tournaments.models import EntryStatus, Format, Outcome, RoundStatus, Tournament
from tournaments.models import TournamentStatus as Status
from tournaments.services import leaving, registration
from tournaments.services.registration import (
    CAPACITY_MAX,
    ROUND_SECONDS_MAX,
    ROUND_SECONDS_MIN,
    SWISS_ROUNDS_MAX,
)

LIST_LIMIT = 100


def _pk(value: str, missing: type[Exception]) -> int:
    """A path's id: ASCII digits naming a positive id, else the same 404 as a missing row."""
    pk = ascii_integer(value)
    if pk is None or pk <= 0 or pk > 2**62:
        raise missing()
    return pk


def _viewer(request: Request) -> User | None:
    user = request.user
    return user if isinstance(user, User) else None


def _visible(request: Request, pk: str) -> Tournament:
    tournament = Tournament.objects.filter(pk=_pk(pk, TournamentNotFound)).first()
    code = request.query_params.get("code")
    if tournament is None or not registration.may_see(tournament, _viewer(request), code):
        raise TournamentNotFound()
    return tournament


# --- Bodies and answers ---------------------------------------------------------------------


class TournamentCreateRequestSerializer(StrictRequestSerializer):
    name = StrictCharField(min_length=1, max_length=80, trim_whitespace=True)
    format = serializers.ChoiceField(choices=Format.choices)
    ruleset = serializers.ChoiceField(choices=RULESETS, default=engine.GAMERULES.name)
    target = serializers.IntegerField(min_value=1, max_value=10_000, required=False)
    turn_seconds = serializers.IntegerField(
        min_value=settings.BALOOT["MIN_TURN_SECONDS"],
        max_value=settings.BALOOT["MAX_TURN_SECONDS"],
        default=86400,
        help_text="Each match's clock per move.",
    )
    public = StrictBooleanField(
        default=False,
        help_text="Listed for everyone (staff only); a private one is entered with its code.",
    )
    capacity = serializers.IntegerField(min_value=2, max_value=CAPACITY_MAX)
    starts_at = serializers.DateTimeField(help_text="Registration closes and round 1 opens.")
    round_seconds = serializers.IntegerField(
        min_value=ROUND_SECONDS_MIN,
        max_value=ROUND_SECONDS_MAX,
        help_text="How long a round may run before its unfinished matches are adjudicated.",
    )
    swiss_rounds = serializers.IntegerField(
        min_value=1, max_value=SWISS_ROUNDS_MAX, required=False, allow_null=True
    )


class EntrySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(
        choices=EntryStatus.choices,
        help_text="invited (waiting for the partner), solo (paired at the start), confirmed, "
        "withdrawn, disqualified, lapsed (no partner by the start).",
    )
    player = PersonSerializer()
    partner = PersonSerializer(allow_null=True)
    seed = serializers.IntegerField(allow_null=True, help_text="1 the best, from the start.")
    rating = serializers.FloatField(allow_null=True, help_text="The team's mean rating ordinal.")


class TournamentSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    format = serializers.ChoiceField(choices=Format.choices)
    ruleset = serializers.ChoiceField(choices=RULESETS)
    target = serializers.IntegerField()
    turn_seconds = serializers.IntegerField()
    public = serializers.BooleanField()
    invite_code = serializers.CharField(
        allow_null=True, help_text="A private tournament's code, for its creator and entrants."
    )
    capacity = serializers.IntegerField()
    teams = serializers.IntegerField(help_text="Places taken (solo entries count two to a team).")
    starts_at = serializers.DateTimeField()
    swiss_rounds = serializers.IntegerField(allow_null=True)
    round_seconds = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Status.choices)
    current_round = serializers.IntegerField()
    winner = EntrySerializer(allow_null=True)
    end_note = serializers.CharField()
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    my_entry = EntrySerializer(allow_null=True, help_text="Your place, if you hold one.")
    invitations = EntrySerializer(
        many=True, help_text="Entries naming you as the partner, waiting for your accept."
    )


class ListedTournamentSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    format = serializers.ChoiceField(choices=Format.choices)
    ruleset = serializers.ChoiceField(choices=RULESETS)
    public = serializers.BooleanField()
    capacity = serializers.IntegerField()
    teams = serializers.IntegerField()
    starts_at = serializers.DateTimeField()
    status = serializers.ChoiceField(choices=Status.choices)
    listed_as = serializers.ChoiceField(
        choices=list(selectors.STATUS_FILTERS),
        help_text="Which `status` filter lists it: upcoming, running or finished.",
    )
    current_round = serializers.IntegerField()


class TournamentListSerializer(serializers.Serializer):
    results = ListedTournamentSerializer(many=True)


class EntryRequestSerializer(StrictRequestSerializer):
    partner = StrictCharField(
        max_length=150,
        required=False,
        allow_null=True,
        help_text="Your partner's username; they accept to confirm the team. Left out or "
        "null: you enter alone and are paired with another solo entry by rating at the start.",
    )
    code = StrictCharField(
        max_length=32, required=False, allow_blank=True, help_text="A private tournament's code."
    )


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    entry = EntrySerializer()
    points = serializers.IntegerField(help_text="Match points: 1 a win (byes included).")
    buchholz = serializers.IntegerField(help_text="The sum of the opponents' match points.")
    difference = serializers.IntegerField(help_text="Game points scored minus conceded.")
    played = serializers.IntegerField()
    eliminated_in = serializers.IntegerField(
        allow_null=True, help_text="Knockout: the round the team lost in."
    )


class StandingsSerializer(serializers.Serializer):
    format = serializers.ChoiceField(choices=Format.choices)
    status = serializers.ChoiceField(choices=Status.choices)
    current_round = serializers.IntegerField()
    standings = StandingSerializer(many=True)


class PairingSerializer(serializers.Serializer):
    position = serializers.IntegerField(help_text="Bracket order (knockout) or board (Swiss).")
    team_a = EntrySerializer(help_text="Seats 0 and 2.")
    team_b = EntrySerializer(allow_null=True, help_text="Seats 1 and 3; null for a bye.")
    match_id = serializers.IntegerField(allow_null=True)
    winner_id = serializers.IntegerField(allow_null=True, help_text="The winning entry's id.")
    outcome = serializers.ChoiceField(choices=Outcome.choices, allow_null=True)
    score_a = serializers.IntegerField()
    score_b = serializers.IntegerField()
    finished_at = serializers.DateTimeField(allow_null=True)


class RoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=RoundStatus.choices)
    started_at = serializers.DateTimeField()
    deadline = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    pairings = PairingSerializer(many=True)


class RoundsSerializer(serializers.Serializer):
    rounds = RoundSerializer(many=True)


_TOURNAMENT = TournamentSerializer()
_ENTRY = EntrySerializer()

NOT_FOUND = (
    404,
    "No such tournament, or a private one you may not see (`tournament_not_found`).",
)
READ_ERRORS = docs.only(docs.AUTH_ERRORS, 401, 403, 429, 503)
CODE = OpenApiParameter(
    "code", str, OpenApiParameter.QUERY, required=False, description="A private tournament's code."
)
STATUS = OpenApiParameter(
    "status",
    {"type": "string", "enum": list(selectors.STATUS_FILTERS)},
    OpenApiParameter.QUERY,
    required=False,
    description="upcoming (registration open), running, finished (cancelled included). "
    "Left out: upcoming and running.",
)


# --- Views ----------------------------------------------------------------------------------


class TournamentsView(APIView):
    serializer_class = TournamentCreateRequestSerializer

    def get_permissions(self) -> list[Any]:
        return [AllowAny()] if self.request.method == "GET" else list(super().get_permissions())

    @property
    def throttle_scope(self) -> str:
        return "reads" if self.request.method == "GET" else "join"

    @extend_schema(
        operation_id="tournaments_list",
        parameters=[STATUS],
        responses={
            200: TournamentListSerializer,
            **docs.errors((400, "An unknown `status` (`invalid`)."), base=READ_ERRORS),
        },
        summary="Tournaments: public ones, and private ones you created or entered",
        description=f"Soonest start first, at most {LIST_LIMIT}. Open to anonymous callers.",
    )
    def get(self, request: Request) -> Response:
        wanted = request.query_params.get("status")
        if wanted is None:
            statuses = (*selectors.STATUS_FILTERS["upcoming"], *selectors.STATUS_FILTERS["running"])
        elif wanted in selectors.STATUS_FILTERS:
            statuses = selectors.STATUS_FILTERS[wanted]
        else:
            raise InvalidField("status", _("Expected upcoming, running or finished."))
        rows = selectors.with_team_counts(
            selectors.tournaments_visible_to(_viewer(request), statuses)
        )[:LIST_LIMIT]
        return Response({"results": [selectors.listed_json(t) for t in rows]})

    @extend_schema(
        operation_id="tournaments_create",
        request=TournamentCreateRequestSerializer,
        examples=[
            OpenApiExample(
                "A Swiss for the weekend",
                value={
                    "name": "Friday Swiss",
                    "format": "swiss",
                    "swiss_rounds": 5,
                    "capacity": 64,
                    "starts_at": "2026-03-06T18:00:00Z",
                    "round_seconds": 7200,
                    "turn_seconds": 60,
                    "public": True,
                },
                request_only=True,
            ),
            OpenApiExample(
                "A private knockout among friends",
                value={
                    "name": "Diwaniya cup",
                    "format": "knockout",
                    "capacity": 8,
                    "starts_at": "2026-03-02T20:00:00Z",
                    "round_seconds": 86400,
                },
                request_only=True,
            ),
        ],
        responses={
            201: TournamentSerializer,
            **docs.errors(
                (400, "Invalid body (`invalid`, `unknown_field`)."),
                (403, "Only staff create public tournaments (`public_tournament_staff_only`)."),
                (
                    422,
                    "A setting the tournament cannot have: a start in the past, Swiss without "
                    "its rounds, rounds for a knockout (`setting_refused`, naming the field).",
                ),
                base=docs.AUTH_ERRORS,
            ),
        },
        summary="Create a tournament: staff a public one, any player a private one",
    )
    def post(self, request: Request) -> Response:
        data = validated_body(TournamentCreateRequestSerializer, request.data)
        user = request_user(request)
        tournament = registration.tournament_create(creator=user, **data)
        return Response(
            _TOURNAMENT.to_representation(selectors.tournament_json(tournament, user)),
            status=status.HTTP_201_CREATED,
        )


class TournamentView(APIView):
    permission_classes = [AllowAny]
    throttle_scope = "reads"

    @extend_schema(
        operation_id="tournaments_retrieve",
        parameters=[CODE],
        responses={200: TournamentSerializer, **docs.errors(NOT_FOUND, base=READ_ERRORS)},
        summary="A tournament, with your place and the invitations waiting for you",
    )
    def get(self, request: Request, pk: str) -> Response:
        tournament = _visible(request, pk)
        return Response(
            _TOURNAMENT.to_representation(selectors.tournament_json(tournament, _viewer(request)))
        )


class TournamentEntriesView(APIView):
    serializer_class = EntryRequestSerializer
    throttle_scope = "join"

    @extend_schema(
        operation_id="tournaments_entries_create",
        request=EntryRequestSerializer,
        examples=[
            OpenApiExample("With a partner", value={"partner": "layla"}, request_only=True),
            OpenApiExample("Alone", value={}, request_only=True),
            OpenApiExample(
                "A private tournament",
                value={"partner": "layla", "code": "k3X9aPq2"},
                request_only=True,
            ),
        ],
        responses={
            201: EntrySerializer,
            **docs.errors(
                (400, "Invalid body (`invalid`, `unknown_field`)."),
                (
                    404,
                    "No such tournament (`tournament_not_found`), or no such partner "
                    "(`user_not_found`).",
                ),
                (
                    409,
                    "Registration is closed (`registration_closed`, `tournament_over`), the "
                    "tournament is full (`tournament_full`), or you hold a place already "
                    "(`already_entered`).",
                ),
                (
                    422,
                    "Your partner holds a place already (`partner_entered`), or is you "
                    "(`cannot_partner_self`).",
                ),
                base=docs.AUTH_ERRORS,
            ),
        },
        summary="Enter a tournament with a partner (who must accept) or alone",
    )
    def post(self, request: Request, pk: str) -> Response:
        data = validated_body(EntryRequestSerializer, request.data)
        user = request_user(request)
        tournament_id = _pk(pk, TournamentNotFound)
        partner = user_by_username(data["partner"]) if data.get("partner") else None
        entry = registration.entry_create(
            tournament_id=tournament_id, user=user, partner=partner, code=data.get("code")
        )
        return Response(
            _ENTRY.to_representation(selectors.entry_json(entry)), status=status.HTTP_201_CREATED
        )


class TournamentEntryAcceptView(APIView):
    throttle_scope = "join"

    @extend_schema(
        operation_id="tournaments_entries_accept",
        request=None,
        responses={
            200: EntrySerializer,
            **docs.errors(
                (400, docs.NO_BODY),
                (403, "The entry names another partner (`not_your_invitation`)."),
                (404, "No such tournament or entry (`tournament_not_found`, `entry_not_found`)."),
                (
                    409,
                    "Registration is closed (`registration_closed`, `tournament_over`), the "
                    "entry is not waiting (`entry_not_invited`), or you hold a place already "
                    "(`already_entered`).",
                ),
                base=docs.AUTH_ERRORS,
            ),
        },
        summary="Accept an entry that names you as the partner",
    )
    def post(self, request: Request, pk: str, entry_id: str) -> Response:
        refuse_body(request.data)
        entry = registration.entry_accept(
            tournament_id=_pk(pk, TournamentNotFound),
            entry_id=_pk(entry_id, EntryNotFound),
            user=request_user(request),
        )
        return Response(_ENTRY.to_representation(selectors.entry_json(entry)))


class MyEntryView(APIView):
    throttle_scope = "join"

    @extend_schema(
        operation_id="tournaments_entries_mine_destroy",
        request=None,
        responses={
            204: None,
            **docs.errors(
                (400, docs.NO_BODY),
                (404, "No such tournament, or you hold no place in it (`not_entered`)."),
                (409, "The tournament has ended (`tournament_over`)."),
                base=docs.AUTH_ERRORS,
            ),
        },
        summary="Withdraw your team (before the start: give up the place)",
        description="Once the tournament runs, the team loses the match it has in play and is "
        "paired no more.",
    )
    def delete(self, request: Request, pk: str) -> Response:
        refuse_body(request.data)
        leaving.entry_withdraw(
            tournament_id=_pk(pk, TournamentNotFound), user=request_user(request)
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class StandingsView(APIView):
    permission_classes = [AllowAny]
    throttle_scope = "reads"

    @extend_schema(
        operation_id="tournaments_standings",
        parameters=[CODE],
        responses={200: StandingsSerializer, **docs.errors(NOT_FOUND, base=READ_ERRORS)},
        summary="The standings: match points, then Buchholz, then point difference",
    )
    def get(self, request: Request, pk: str) -> Response:
        tournament = _visible(request, pk)
        return Response(
            StandingsSerializer().to_representation(selectors.standings_json(tournament))
        )


class RoundsView(APIView):
    permission_classes = [AllowAny]
    throttle_scope = "reads"

    @extend_schema(
        operation_id="tournaments_rounds",
        parameters=[CODE],
        responses={200: RoundsSerializer, **docs.errors(NOT_FOUND, base=READ_ERRORS)},
        summary="The rounds with their pairings and match ids",
    )
    def get(self, request: Request, pk: str) -> Response:
        tournament = _visible(request, pk)
        return Response(
            RoundsSerializer().to_representation({"rounds": selectors.rounds_json(tournament)})
        )
