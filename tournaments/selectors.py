"""What the tournament endpoints render: plain data built from the rows, for any viewer (a
tournament shows no card and no private match detail)."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Q, QuerySet

from accounts.models import User
from players.selectors.social import person_json
from tournaments import pairing
from tournaments.models import (
    Entry,
    EntryStatus,
    Format,
    Membership,
    Pairing,
    Tournament,
    TournamentRound,
    TournamentStatus,
)
from tournaments.services.registration import teams_counted
from tournaments.services.rounds import results_of

# ``GET /tournaments?status=``: what each filter lists.
STATUS_FILTERS = {
    "upcoming": (TournamentStatus.REGISTRATION,),
    "running": (TournamentStatus.RUNNING,),
    "finished": (TournamentStatus.FINISHED, TournamentStatus.CANCELLED),
}


def tournaments_visible_to(user: User | None, statuses: tuple[str, ...]) -> QuerySet[Tournament]:
    """Public tournaments, and the private ones ``user`` created or holds a place in."""
    visible = Q(public=True)
    if user is not None:
        held = Membership.objects.filter(user=user).values("tournament_id")
        visible |= Q(created_by=user) | Q(pk__in=held)
    return Tournament.objects.filter(visible, status__in=statuses).order_by("starts_at", "pk")


def entry_json(entry: Entry) -> dict[str, Any]:
    return {
        "id": entry.pk,
        "status": entry.status,
        "player": person_json(entry.player),
        "partner": person_json(entry.partner) if entry.partner is not None else None,
        "seed": entry.seed,
        "rating": entry.rating,
    }


def _entries(tournament: Tournament) -> QuerySet[Entry]:
    return Entry.objects.filter(tournament=tournament).select_related("player", "partner")


def tournament_json(tournament: Tournament, viewer: User | None) -> dict[str, Any]:
    mine = None
    invitations: list[dict[str, Any]] = []
    if viewer is not None:
        held = (
            Membership.objects.filter(tournament=tournament, user=viewer)
            .select_related("entry__player", "entry__partner")
            .first()
        )
        mine = entry_json(held.entry) if held is not None else None
        invitations = [
            entry_json(e)
            for e in _entries(tournament).filter(partner=viewer, status=EntryStatus.INVITED)
        ]
    shows_code = viewer is not None and (
        viewer.is_staff or viewer.pk == tournament.created_by_id or mine is not None
    )
    winner = (
        entry_json(_entries(tournament).get(pk=tournament.winner_id))
        if tournament.winner_id
        else None
    )
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "format": tournament.format,
        "ruleset": tournament.ruleset,
        "target": tournament.target,
        "turn_seconds": tournament.turn_seconds,
        "public": tournament.public,
        "invite_code": tournament.invite_code if shows_code and not tournament.public else None,
        "capacity": tournament.capacity,
        "teams": _teams(tournament),
        "starts_at": tournament.starts_at,
        "swiss_rounds": tournament.swiss_rounds,
        "round_seconds": tournament.round_seconds,
        "status": tournament.status,
        "current_round": tournament.current_round,
        "winner": winner,
        "end_note": tournament.end_note,
        "created_at": tournament.created_at,
        "started_at": tournament.started_at,
        "finished_at": tournament.finished_at,
        "my_entry": mine,
        "invitations": invitations,
    }


def _teams(tournament: Tournament) -> int:
    if tournament.status == TournamentStatus.REGISTRATION:
        return teams_counted(tournament)
    return Entry.objects.filter(tournament=tournament, seed__isnull=False).count()


def listed_json(tournament: Tournament) -> dict[str, Any]:
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "format": tournament.format,
        "ruleset": tournament.ruleset,
        "public": tournament.public,
        "capacity": tournament.capacity,
        "teams": _listed_teams(tournament),
        "starts_at": tournament.starts_at,
        "status": tournament.status,
        "listed_as": next(k for k, v in STATUS_FILTERS.items() if tournament.status in v),
        "current_round": tournament.current_round,
    }


def with_team_counts(rows: QuerySet[Tournament]) -> QuerySet[Tournament]:
    """The counts ``_listed_teams`` reads, in the list's one query: the same rule as a
    tournament's own ``teams`` (``registration.teams_counted``, then the seeded teams)."""
    paired = (EntryStatus.INVITED, EntryStatus.CONFIRMED)
    return rows.annotate(
        paired=Count("entries", filter=Q(entries__status__in=paired), distinct=True),
        solos=Count("entries", filter=Q(entries__status=EntryStatus.SOLO), distinct=True),
        seeded=Count("entries", filter=Q(entries__seed__isnull=False), distinct=True),
    )


def _listed_teams(tournament: Tournament) -> int:
    if tournament.status == TournamentStatus.REGISTRATION:
        return (
            int(getattr(tournament, "paired", 0)) + (int(getattr(tournament, "solos", 0)) + 1) // 2
        )
    return int(getattr(tournament, "seeded", 0))


def standings_json(tournament: Tournament) -> dict[str, Any]:
    seeds = list(_entries(tournament).filter(seed__isnull=False).order_by("seed"))
    # The same results and order the Swiss pairs by (``rounds.results_of``).
    table = pairing.standings([e.pk for e in seeds], results_of(tournament))
    by_id = {e.pk: e for e in seeds}
    eliminated: dict[int, int] = {}
    if tournament.format == Format.KNOCKOUT:
        for row in Pairing.objects.filter(tournament=tournament, winner__isnull=False).values(
            "team_a_id", "team_b_id", "winner_id", "round__number"
        ):
            for team in (row["team_a_id"], row["team_b_id"]):
                if team is not None and team != row["winner_id"]:
                    eliminated[team] = row["round__number"]
    return {
        "format": tournament.format,
        "status": tournament.status,
        "current_round": tournament.current_round,
        "standings": [
            {
                "rank": rank,
                "entry": entry_json(by_id[s.team]),
                "points": s.points,
                "buchholz": s.buchholz,
                "difference": s.difference,
                "played": s.played,
                "eliminated_in": eliminated.get(s.team),
            }
            for rank, s in enumerate(table, start=1)
        ],
    }


def rounds_json(tournament: Tournament) -> list[dict[str, Any]]:
    rounds = list(TournamentRound.objects.filter(tournament=tournament).order_by("number"))
    rows = (
        Pairing.objects.filter(tournament=tournament)
        .select_related("team_a__player", "team_a__partner", "team_b__player", "team_b__partner")
        .order_by("round__number", "position")
    )
    by_round: dict[int, list[dict[str, Any]]] = {r.pk: [] for r in rounds}
    for row in rows:
        by_round[row.round_id].append(
            {
                "position": row.position,
                "team_a": entry_json(row.team_a),
                "team_b": entry_json(row.team_b) if row.team_b is not None else None,
                "match_id": row.match_id,
                "winner_id": row.winner_id,
                "outcome": row.outcome or None,
                "score_a": row.score_a,
                "score_b": row.score_b,
                "finished_at": row.finished_at,
            }
        )
    return [
        {
            "number": r.number,
            "status": r.status,
            "started_at": r.started_at,
            "deadline": r.deadline,
            "finished_at": r.finished_at,
            "pairings": by_round[r.pk],
        }
        for r in rounds
    ]
