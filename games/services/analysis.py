"""Post-game analysis (``games.engine.analysis``): opened when a match ends, made by a
low-priority task, stored in one short transaction.

The search takes seconds for a whole match, so it never runs inside a transaction: the task
reads the decks and the log, analyses them with no lock held, then takes the analysis row's
lock only to store the result (a second run of the same task finds it ready and stops).
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.db import transaction

from core import clock, events
from games import engine
from games.engine import analysis
from games.events import AnalysisReady, MatchFinished
from games.models import AnalysisStatus, Match, MatchAnalysis, Move
from games.replay import logged_rounds

log = logging.getLogger(__name__)


def analysis_seed(match_id: int) -> str:
    """The seed of a match's analysis: derived from the match alone, so analysing it again
    gives the same figures."""
    return f"match-{match_id}"


def analysis_open(event: MatchFinished) -> MatchAnalysis | None:
    """Inside the transaction that finished the match: open its analysis, pending, if it
    has moves to analyse. The caller schedules ``analysis_make`` once that commits."""
    if not Move.objects.filter(match_id=event.match_id).exists():
        return None  # aborted before a move: nothing to analyse
    ruleset = Match.objects.values_list("ruleset", flat=True).get(pk=event.match_id)
    row, _ = MatchAnalysis.objects.get_or_create(
        match_id=event.match_id,
        defaults={
            "seed": analysis_seed(event.match_id),
            "created_at": clock.now(),
            "play_samples": analysis.play_samples_for(engine.get_ruleset(ruleset)),
            "bid_samples": analysis.BID_SAMPLES,
        },
    )
    return row


def analysis_make(match_id: int) -> bool:
    """Analyse a finished match whose analysis is pending, and store it; False when there is
    none pending (ready already, or never opened)."""
    row = MatchAnalysis.objects.filter(match_id=match_id).select_related("match").first()
    if row is None or row.status != AnalysisStatus.PENDING:
        return False
    match = row.match
    try:
        decisions = analysis.analyse_match(
            engine.get_ruleset(match.ruleset),
            logged_rounds(match),
            seed=row.seed,
            dealer=match.first_dealer,
            target=match.target,
            play_samples=row.play_samples,
            bid_samples=row.bid_samples,
            partner_seats=_partnered_people(match),
        )
    except (engine.EngineError, ValueError):
        # Every logged move was accepted once: only a damaged log gets here. Marked, so the
        # sweep does not send it again every few minutes.
        log.exception("the log of match %s does not replay: analysis failed", match_id)
        MatchAnalysis.objects.filter(pk=row.pk, status=AnalysisStatus.PENDING).update(
            status=AnalysisStatus.FAILED
        )
        return False
    stored = [_stored(d) for d in decisions]
    with transaction.atomic():
        locked = MatchAnalysis.objects.select_for_update().get(pk=row.pk)
        if locked.status != AnalysisStatus.PENDING:
            return False  # a redelivered task finished first
        locked.decisions = stored
        locked.status = AnalysisStatus.READY
        locked.ready_at = clock.now()
        locked.save(update_fields=["decisions", "status", "ready_at"])
        events.emit(AnalysisReady(match_id=match_id, version=match.version))
    return True


def _partnered_people(match: Match) -> tuple[int, ...]:
    """The seats of people whose partner is a person too: the only cards the fair-play
    signal of partners reads ``partner_loss`` for (it doubles a card's cost)."""
    people = {s.index for s in match.seat_list() if s.user_id is not None}
    return tuple(seat for seat in sorted(people) if (seat + 2) % 4 in people)


def analyses_pending(older_than_seconds: float) -> list[int]:
    """Matches whose analysis has waited longer than this: a task lost with a worker, sent
    again by the periodic sweep (``games.tasks.sweep_analyses``)."""
    cutoff = clock.now() - timedelta(seconds=older_than_seconds)
    return list(
        MatchAnalysis.objects.filter(
            status=AnalysisStatus.PENDING, created_at__lt=cutoff
        ).values_list("match_id", flat=True)
    )


def _stored(decision: analysis.Decision) -> list[Any]:
    kind = "bid" if isinstance(decision.chosen, engine.Bid) else "play"
    return [
        decision.round,
        decision.action,
        decision.seat,
        kind,
        engine.move_to_dict(decision.chosen),
        engine.move_to_dict(decision.best),
        round(decision.chosen_value, 3),
        round(decision.best_value, 3),
        decision.options,
        None if decision.partner_loss is None else round(decision.partner_loss, 3),
        decision.trick,
    ]
