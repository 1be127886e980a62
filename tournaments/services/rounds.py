"""Starting a tournament, opening each round, advancing and finishing (docs/tournaments.md).

Every function here runs under the tournament's row lock, so a start, an advance and a staff
action on one tournament happen one after another. Making a round's matches happens inside
that lock; a match's end does not need it (``results``), so a round never waits on a game.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from datetime import timedelta

from django.db import transaction
from django.db.models import Q

from core import clock, events
from core.errors import DomainError
from games.models import Match, Visibility
from games.services import barred_from_seats
from games.services.matches import match_create_table
from players.selectors.ratings import ordinals
from tournaments import pairing
from tournaments.events import TournamentFinished, TournamentMatchReady, TournamentRoundStarted
from tournaments.models import (
    Entry,
    EntryStatus,
    Format,
    Membership,
    Outcome,
    Pairing,
    RoundStatus,
    Tournament,
    TournamentRound,
    TournamentStatus,
)
from tournaments.services.registration import tournament_lock

log = logging.getLogger(__name__)

# The teams still able to play: a withdrawn or disqualified team is paired no more.
PLAYING = (EntryStatus.CONFIRMED,)


# Enqueues ``tournament_advance`` for a tournament id: ``tournaments.tasks`` registers it
# (services cannot import the tasks that call them).
_advancer: Callable[[int], object] | None = None


def advancer_register(advancer: Callable[[int], object]) -> None:
    global _advancer
    _advancer = advancer


def advance_on_commit(tournament_id: int) -> None:
    """Ask for ``tournament_advance`` once the caller's transaction commits. Should the task
    be lost (the broker down, a worker killed), the beat sweep advances the tournament."""

    def send() -> None:
        if _advancer is None:  # pragma: no cover - TournamentsConfig.ready registers it
            log.warning("no advancer registered; the sweep will advance %s", tournament_id)
            return
        try:
            _advancer(tournament_id)
        except Exception:
            log.warning("could not enqueue the advance of %s", tournament_id, exc_info=True)

    transaction.on_commit(send)


# --- The start ------------------------------------------------------------------------------


def _close_registration(tournament: Tournament) -> None:
    """Unanswered invitations lapse; solo entries pair up by rating (the two best, the next
    two, ...), the odd one out lapses."""
    now = clock.now()
    lapsed = Entry.objects.filter(tournament=tournament, status=EntryStatus.INVITED)
    Membership.objects.filter(entry__in=lapsed).delete()
    lapsed.update(status=EntryStatus.LAPSED, left_at=now)
    solos = list(Entry.objects.filter(tournament=tournament, status=EntryStatus.SOLO))
    rating = ordinals([e.player_id for e in solos], tournament.ruleset)
    solos.sort(key=lambda e: (-rating[e.player_id], e.created_at, e.pk))
    for first, second in zip(solos[0::2], solos[1::2], strict=False):
        first.partner_id = second.player_id
        first.status = EntryStatus.CONFIRMED
        first.confirmed_at = now
        first.save(update_fields=["partner", "status", "confirmed_at"])
        Membership.objects.filter(entry=second).update(entry=first)
        second.status = EntryStatus.LAPSED  # merged into ``first``
        second.left_at = now
        second.save(update_fields=["status", "left_at"])
    if len(solos) % 2:
        odd = solos[-1]
        Membership.objects.filter(entry=odd).delete()
        odd.status = EntryStatus.LAPSED
        odd.left_at = now
        odd.save(update_fields=["status", "left_at"])


def _seed(tournament: Tournament) -> list[Entry]:
    """Confirmed teams, best first by the mean of their two ordinals in the ruleset, then by
    who entered first; the seed is stored on each entry."""
    teams = list(Entry.objects.filter(tournament=tournament, status=EntryStatus.CONFIRMED))
    rating = ordinals([uid for e in teams for uid in e.members], tournament.ruleset)
    for entry in teams:
        entry.rating = sum(rating[uid] for uid in entry.members) / 2
    teams.sort(key=lambda e: (-(e.rating or 0.0), e.created_at, e.pk))
    for i, entry in enumerate(teams, start=1):
        entry.seed = i
    Entry.objects.bulk_update(teams, ["rating", "seed"])
    return teams


@transaction.atomic
def tournament_start(tournament_id: int) -> bool:
    """Registration closes at the start time and round 1 opens; fewer than two teams cancel
    the tournament. False if it is not due (or started already)."""
    tournament = tournament_lock(tournament_id)
    if tournament.status != TournamentStatus.REGISTRATION or tournament.starts_at > clock.now():
        return False
    _close_registration(tournament)
    teams = _seed(tournament)
    if len(teams) < 2:
        tournament_end(tournament, status=TournamentStatus.CANCELLED, note="too few teams")
        return True
    tournament.status = TournamentStatus.RUNNING
    tournament.started_at = clock.now()
    ids = [e.pk for e in teams]
    if tournament.format == Format.KNOCKOUT:
        pairs = pairing.knockout_first_round(ids)
    else:
        pairs = pairing.swiss_round(ids, set(), set())
    round_open(tournament, 1, pairs)
    return True


# --- Rounds ---------------------------------------------------------------------------------


def _users(entries: Iterable[Entry]) -> tuple[int, ...]:
    return tuple(uid for e in entries for uid in e.members)


def round_open(
    tournament: Tournament, number: int, pairs: Sequence[tuple[int | None, int | None]]
) -> TournamentRound:
    """The round's pairings, and a match for each pairing of two teams able to play: team A
    in seats 0 and 2, team B in 1 and 3. A missing team is a bye (or a walkover, when the
    team was there but left)."""
    now = clock.now()
    tournament.current_round = number
    tournament.save()
    rnd = TournamentRound.objects.create(
        tournament=tournament,
        number=number,
        status=RoundStatus.RUNNING,
        started_at=now,
        deadline=now + timedelta(seconds=tournament.round_seconds),
    )
    ids = [t for pair in pairs for t in pair if t is not None]
    entries = Entry.objects.select_related("player", "partner").in_bulk(ids)
    ready: list[TournamentMatchReady] = []
    for position, (a_id, b_id) in enumerate(pairs):
        a = entries.get(a_id) if a_id is not None else None
        b = entries.get(b_id) if b_id is not None else None
        if a is None and b is None:
            continue  # an empty slot of a knockout bracket: both teams left
        if a is None:
            a, b = b, None
        assert a is not None
        if b is not None and tournament.format == Format.KNOCKOUT and (b.seed or 0) < (a.seed or 0):
            a, b = b, a  # the better seed sits as team A (seats 0 and 2)
        row = Pairing(round=rnd, tournament=tournament, position=position, team_a=a, team_b=b)
        if b is None:
            # Round 1's missing teams are the bracket's byes (or Swiss's); later in a knockout
            # the opponent left the tournament.
            bye = number == 1 or tournament.format == Format.SWISS
            row.winner, row.finished_at = a, now
            row.outcome = Outcome.BYE if bye else Outcome.WALKOVER
        elif a.status not in PLAYING or b.status not in PLAYING:
            row.winner = a if a.status in PLAYING else b
            row.outcome, row.finished_at = Outcome.WALKOVER, now
        else:
            match = _match_make(tournament, a, b)
            if match is None:  # a player may no longer sit (banned, account closed)
                row.winner, row.outcome, row.finished_at = (
                    _walkover_winner(a, b),
                    Outcome.WALKOVER,
                    now,
                )
            else:
                row.match = match
                ready.append(
                    TournamentMatchReady(
                        tournament_id=tournament.pk,
                        round=number,
                        match_id=match.pk,
                        user_ids=_users([a, b]),
                    )
                )
        row.save()
    in_round = [e for e in entries.values() if e.status in PLAYING]
    events.emit(
        TournamentRoundStarted(tournament_id=tournament.pk, round=number, user_ids=_users(in_round))
    )
    for event in ready:
        events.emit(event)
    advance_on_commit(tournament.pk)  # a round of byes and walkovers only is over already
    return rnd


def _match_make(tournament: Tournament, a: Entry, b: Entry) -> Match | None:
    assert a.partner is not None and b.partner is not None
    try:
        with transaction.atomic():
            return match_create_table(
                seats=[a.player, b.player, a.partner, b.partner],
                ruleset=tournament.ruleset,
                turn_seconds=tournament.turn_seconds,
                target=tournament.target,
                visibility=Visibility.PUBLIC if tournament.public else Visibility.PRIVATE,
                rated=True,
            )
    except (DomainError, ValueError) as exc:  # ValueError: a player in both teams
        log.warning("tournament %s: no match for %s v %s: %s", tournament.pk, a.pk, b.pk, exc)
        return None


def _walkover_winner(a: Entry, b: Entry) -> Entry:
    """The team whose players may all still sit; if neither (or both), the better seed."""
    barred = barred_from_seats([*a.members, *b.members])
    a_ok = not barred & set(a.members)
    b_ok = not barred & set(b.members)
    if a_ok != b_ok:
        return a if a_ok else b
    return a if (a.seed or 0) <= (b.seed or 0) else b


@transaction.atomic
def tournament_advance(tournament_id: int) -> bool:
    """If the current round's every pairing has its winner: close it and open the next, or
    finish. False when there is nothing to do (a result still missing, or done already)."""
    tournament = tournament_lock(tournament_id)
    if tournament.status != TournamentStatus.RUNNING:
        return False
    rnd = TournamentRound.objects.filter(
        tournament=tournament, number=tournament.current_round
    ).first()
    if rnd is None or rnd.pairings.filter(winner__isnull=True).exists():
        return False
    rnd.status = RoundStatus.FINISHED
    rnd.finished_at = clock.now()
    rnd.save(update_fields=["status", "finished_at"])
    if tournament.format == Format.KNOCKOUT:
        _knockout_next(tournament, rnd)
    else:
        _swiss_next(tournament, rnd)
    return True


def _knockout_next(tournament: Tournament, rnd: TournamentRound) -> None:
    teams = Entry.objects.filter(tournament=tournament, seed__isnull=False).count()
    slots = pairing.bracket_size(teams) // 2 >> (rnd.number - 1)
    winners: list[int | None] = [None] * slots
    for row in rnd.pairings.select_related("winner"):
        assert row.winner is not None
        winners[row.position] = row.winner_id if row.winner.status in PLAYING else None
    if slots == 1:
        champion = Entry.objects.filter(pk=winners[0]).first() if winners[0] else None
        tournament_end(
            tournament, winner=champion, note="" if champion else "no team left in the final"
        )
        return
    pairs = [(winners[i], winners[i + 1]) for i in range(0, slots, 2)]
    round_open(tournament, rnd.number + 1, pairs)


def results_of(tournament: Tournament) -> list[pairing.Result]:
    out = []
    for row in Pairing.objects.filter(tournament=tournament, winner__isnull=False).order_by(
        "round__number", "position"
    ):
        assert row.winner_id is not None
        out.append(
            pairing.Result(
                a=row.team_a_id,
                b=row.team_b_id,
                winner=row.winner_id,
                score_a=row.score_a,
                score_b=row.score_b,
            )
        )
    return out


def seeds_of(tournament: Tournament) -> list[int]:
    return list(
        Entry.objects.filter(tournament=tournament, seed__isnull=False)
        .order_by("seed")
        .values_list("pk", flat=True)
    )


def _swiss_next(tournament: Tournament, rnd: TournamentRound) -> None:
    results = results_of(tournament)
    table = pairing.standings(seeds_of(tournament), results)
    playing = set(
        Entry.objects.filter(tournament=tournament, status__in=PLAYING).values_list("pk", flat=True)
    )
    if rnd.number >= (tournament.swiss_rounds or 0) or len(playing) < 2:
        _swiss_finish(tournament, table)
        return
    ranked = [s.team for s in table if s.team in playing]
    try:
        pairs = pairing.swiss_round(ranked, pairing.opponents(results), pairing.had_bye(results))
    except pairing.NoPairing:
        _swiss_finish(tournament, table, note="no pairing without a rematch")
        return
    round_open(tournament, rnd.number + 1, list(pairs))


def _swiss_finish(tournament: Tournament, table: list[pairing.Standing], note: str = "") -> None:
    eligible = set(
        Entry.objects.filter(tournament=tournament, status__in=PLAYING).values_list("pk", flat=True)
    )
    top = next((s.team for s in table if s.team in eligible), None)
    tournament_end(
        tournament, winner=Entry.objects.filter(pk=top).first() if top else None, note=note
    )


def tournament_end(
    tournament: Tournament,
    *,
    winner: Entry | None = None,
    status: str = TournamentStatus.FINISHED,
    note: str = "",
) -> None:
    tournament.status = status
    tournament.winner = winner
    tournament.end_note = note
    tournament.finished_at = clock.now()
    tournament.save()
    TournamentRound.objects.filter(tournament=tournament, status=RoundStatus.RUNNING).update(
        status=RoundStatus.FINISHED, finished_at=tournament.finished_at
    )
    players = Entry.objects.filter(tournament=tournament).filter(
        Q(seed__isnull=False) | Q(status__in=PLAYING)
    )
    events.emit(TournamentFinished(tournament_id=tournament.pk, user_ids=_users(players)))
