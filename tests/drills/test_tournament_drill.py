"""A tournament survives its worker killed with SIGKILL mid-round, and its queue lost.

Four teams, knockout, matches to 40 played by bots on the real worker (each round's seats
are handed to bots as staff would). Mid-round 1 the worker is killed and every queued task
purged: the bot turns in flight, and any advance asked for, are gone. The restarted worker's
sweeps must find the due turns and, once round 1's last result is in, the advance; the
tournament reaches its winner with every match log whole.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from games import services
from games.models import Move, Seat
from tests.support.logs import assert_log_is_whole
from tests.support.players import Player
from tests.support.workers import ROOT, WorkerProcess, wait_for
from tournaments.models import Pairing, Tournament, TournamentStatus
from tournaments.services import registration, rounds

pytestmark = [pytest.mark.worker, pytest.mark.slow]


def _to_bots(tournament_id: int) -> None:
    """Every human seat of the tournament's matches in play goes to a bot (for good)."""
    seats = Seat.objects.filter(
        match__tournament_pairing__tournament_id=tournament_id,
        match__status="active",
        user__isnull=False,
    ).values_list("match_id", "index")
    for match_id, index in list(seats):
        with transaction.atomic():
            match = services.match_lock(match_id)
            services.seat_replace_with_bot(match=match, seat_index=index, level="easy")


def _moves(tournament_id: int) -> int:
    return Move.objects.filter(match__tournament_pairing__tournament_id=tournament_id).count()


def test_a_tournament_survives_a_worker_killed_mid_round(
    worker: WorkerProcess, make_player: Callable[..., Player]
) -> None:
    owner = make_player()
    tournament = registration.tournament_create(
        creator=owner.user,
        name="Drill cup",
        format="knockout",
        public=False,
        capacity=4,
        starts_at=timezone.now() + timedelta(hours=1),
        round_seconds=3600,
        target=40,
    )
    for _ in range(4):
        a, b = make_player(), make_player()
        entry = registration.entry_create(
            tournament_id=tournament.pk, user=a.user, partner=b.user, code=tournament.invite_code
        )
        registration.entry_accept(tournament_id=tournament.pk, entry_id=entry.pk, user=b.user)
    Tournament.objects.filter(pk=tournament.pk).update(
        starts_at=timezone.now() - timedelta(seconds=1)
    )
    assert rounds.tournament_start(tournament.pk)
    _to_bots(tournament.pk)
    wait_for(lambda: _moves(tournament.pk) >= 30, timeout=60, worker=worker, what="bots playing")

    worker.kill9()
    subprocess.run(
        [sys.executable, "-m", "celery", "-A", "baloot_site", "purge", "-f"],
        cwd=ROOT,
        env=worker.env,
        capture_output=True,
        check=True,
        timeout=60,
    )
    stalled = _moves(tournament.pk)
    time.sleep(1.0)
    assert _moves(tournament.pk) == stalled  # nothing plays while no worker runs
    worker.start()

    def finished() -> bool:
        _to_bots(tournament.pk)  # round 2's seats, once it opens
        return Tournament.objects.get(pk=tournament.pk).status == TournamentStatus.FINISHED

    wait_for(finished, timeout=300, worker=worker, what="the tournament to finish")
    tournament.refresh_from_db()
    assert tournament.winner_id is not None and tournament.current_round == 2
    rows = list(Pairing.objects.filter(tournament=tournament))
    assert len(rows) == 3 and all(r.winner_id for r in rows)
    for row in rows:
        assert row.match_id is not None
        assert_log_is_whole(row.match_id)
    assert _moves(tournament.pk) > stalled
