"""Thin Celery tasks of the players app."""

from __future__ import annotations

from celery import shared_task

from players.selectors.leaderboards import marks_refresh
from players.services.matchmaking import matchmaking_sweep


@shared_task(acks_late=True, ignore_result=True)
def place_waiting_players() -> int:
    """Beat, every few seconds: a placement pass over every quick-play queue, for the bands
    that widened and the bots that became due since the last one. Idempotent: a pass seats
    only tickets still waiting, under their row locks."""
    return matchmaking_sweep()


@shared_task(acks_late=True, ignore_result=True)
def refresh_leaderboard_marks() -> int:
    """Beat, every ``LEADERBOARD_MARKS_SECONDS``: the boards' milestones that ranks count
    from (players.selectors.leaderboards)."""
    return marks_refresh()
