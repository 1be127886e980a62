"""Thin Celery tasks for tournaments: each takes an id and calls one service that re-reads
under the tournament's lock, so a duplicate or a redelivery does nothing twice."""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import DatabaseError
from django.db.models import Exists, OuterRef

from core import clock
from tournaments.models import Pairing, Tournament, TournamentStatus
from tournaments.services import results, rounds

log = logging.getLogger(__name__)


@shared_task(
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(DatabaseError,),
    retry_backoff=True,
    max_retries=5,
)
def advance_tournament(tournament_id: int) -> bool:
    """Close the current round and open the next (or finish) if every result is in."""
    return rounds.tournament_advance(tournament_id)


rounds.advancer_register(lambda tournament_id: advance_tournament.delay(tournament_id))


@shared_task
def sweep_tournaments() -> dict[str, int]:
    """Beat: tournaments due to start, rounds past their deadline, and rounds complete whose
    advance was lost (a worker killed after the last result committed)."""
    started = 0
    for tournament_id in Tournament.objects.filter(
        status=TournamentStatus.REGISTRATION, starts_at__lte=clock.now()
    ).values_list("pk", flat=True)[:50]:
        try:
            started += rounds.tournament_start(tournament_id)
        except Exception:
            log.exception("tournament %s did not start", tournament_id)
    decided = results.deadlines_sweep()
    advanced = 0
    missing = Pairing.objects.filter(
        tournament=OuterRef("pk"), round__number=OuterRef("current_round"), winner__isnull=True
    )
    complete = Tournament.objects.filter(status=TournamentStatus.RUNNING).exclude(Exists(missing))
    for tournament_id in complete.values_list("pk", flat=True)[:50]:
        try:
            advanced += rounds.tournament_advance(tournament_id)
        except Exception:
            log.exception("tournament %s did not advance", tournament_id)
    return {"started": started, "decided": decided, "advanced": advanced}
