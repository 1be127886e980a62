"""A tournament match's end, recorded on its pairing; and the ends the tournament forces: a
no-show, a team leaving mid-match, the round's deadline (docs/tournaments.md "Results").

``result_record`` runs inside the transaction that ends the match (``MatchFinished``, under
the match lock): it writes the pairing row only and asks for the tournament to advance once
that commits. The forced ends each lock the match in their own transaction and end it through
``games.services.match_finish``, which lands back in ``result_record``.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.db.models import Q

from core import clock, events
from games.events import MatchFinished, TurnTimedOut
from games.models import Actor, EndReason, Match, MatchStatus, Move
from games.services import match_finish, match_lock
from tournaments.models import (
    Entry,
    Outcome,
    Pairing,
    RoundStatus,
    Tournament,
    TournamentRound,
    TournamentStatus,
)
from tournaments.services.rounds import advance_on_commit

log = logging.getLogger(__name__)


def result_record(event: MatchFinished) -> None:
    """A match ended: if it is a tournament's, its pairing gets its winner (team A sits in
    seats 0 and 2: team 0). A match staff aborted (no winner) is decided as at the deadline:
    by the score, then the better seed."""
    row = (
        # of=self: team B is null for a bye, and PostgreSQL locks no outer join's null side.
        Pairing.objects.select_for_update(of=("self",))
        .select_related("team_a", "team_b")
        .filter(match_id=event.match_id, winner__isnull=True)
        .first()
    )
    if row is None:
        return
    if not Tournament.objects.filter(
        pk=row.tournament_id, status=TournamentStatus.RUNNING
    ).exists():
        return  # cancelled: its aborted matches decide nothing
    assert row.team_b is not None
    score_a, score_b = Match.objects.values_list("score_team0", "score_team1").get(
        pk=event.match_id
    )
    winner_team = event.winner_team
    if winner_team is None:
        winner_team = _by_score(score_a, score_b, row.team_a, row.team_b)
        row.outcome = row.outcome or Outcome.ADJUDICATED
    elif event.end_reason == EndReason.ADJUDICATED:  # by a moderator, or a forced end below
        row.outcome = row.outcome or Outcome.ADJUDICATED
    row.winner = row.team_a if winner_team == 0 else row.team_b
    row.outcome = row.outcome or Outcome.PLAYED
    row.score_a, row.score_b = score_a, score_b
    row.finished_at = clock.now()
    row.save(update_fields=["winner", "outcome", "score_a", "score_b", "finished_at"])
    advance_on_commit(row.tournament_id)


def _by_score(score_a: int, score_b: int, a: Entry, b: Entry) -> int:
    if score_a != score_b:
        return 0 if score_a > score_b else 1
    return 0 if (a.seed or 0) <= (b.seed or 0) else 1


@transaction.atomic
def match_decide(*, match_id: int, losing_team: int | None, outcome: str) -> bool:
    """End a tournament match that is still running: ``losing_team`` loses it (a forfeit), or,
    when None, the score decides (then the better seed). False if it ended meanwhile."""
    match = match_lock(match_id)
    if match.status != MatchStatus.ACTIVE:
        return False
    row = Pairing.objects.select_related("team_a", "team_b").filter(match=match).first()
    if row is None or row.winner_id is not None:
        return False
    assert row.team_b is not None
    if losing_team is None:
        winner_team = _by_score(match.score_team0, match.score_team1, row.team_a, row.team_b)
    else:
        winner_team = 1 - losing_team
    Pairing.objects.filter(pk=row.pk).update(outcome=outcome)
    match_finish(match, winner_team=winner_team, reason=EndReason.ADJUDICATED)
    return True


def team_forfeit_current(tournament: Tournament, entry: Entry) -> None:
    """``entry`` left the running tournament (withdrawn, disqualified): its match in the
    current round, if any is in play, is lost once this commits."""
    row = (
        Pairing.objects.filter(
            Q(team_a=entry) | Q(team_b=entry),
            tournament=tournament,
            round__number=tournament.current_round,
            winner__isnull=True,
            match__isnull=False,
        )
        .order_by("pk")
        .first()
    )
    if row is None:
        return
    assert row.match_id is not None
    losing = 0 if row.team_a_id == entry.pk else 1
    match_id = row.match_id
    transaction.on_commit(
        lambda: match_decide(match_id=match_id, losing_team=losing, outcome=Outcome.FORFEIT),
        robust=True,
    )


def no_show_check(event: TurnTimedOut) -> None:
    """A player's turn timed out before they made a single move in a tournament match: a
    no-show, and their team forfeits (after commit, in its own transaction)."""
    if not Pairing.objects.filter(match_id=event.match_id, winner__isnull=True).exists():
        return
    if Move.objects.filter(match_id=event.match_id, seat=event.seat, actor=Actor.HUMAN).exists():
        return
    losing = event.seat % 2
    match_id = event.match_id
    transaction.on_commit(
        lambda: match_decide(match_id=match_id, losing_team=losing, outcome=Outcome.FORFEIT),
        robust=True,
    )


def deadlines_sweep(limit: int = 200) -> int:
    """Beat: every unfinished match of a round whose deadline passed is decided by the score
    (each in its own transaction). Returns how many were decided."""
    due = TournamentRound.objects.filter(status=RoundStatus.RUNNING, deadline__lte=clock.now())
    match_ids = list(
        Pairing.objects.filter(round__in=due, winner__isnull=True, match__isnull=False)
        .order_by("pk")
        .values_list("match_id", flat=True)[:limit]
    )
    decided = 0
    for match_id in match_ids:
        assert match_id is not None
        try:
            decided += match_decide(
                match_id=match_id, losing_team=None, outcome=Outcome.ADJUDICATED
            )
        except Exception:  # one bad match must not stall the others
            log.exception("tournament match %s not decided", match_id)
    return decided


def connect() -> None:
    events.subscribe(MatchFinished, result_record)
    events.subscribe(TurnTimedOut, no_show_check)
