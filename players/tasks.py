"""Thin Celery tasks of the players app."""

from __future__ import annotations

from celery import shared_task

from players.services.matchmaking import matchmaking_sweep


@shared_task(acks_late=True, ignore_result=True)
def place_waiting_players() -> int:
    """Beat, every few seconds: a placement pass over every quick-play queue, for the bands
    that widened and the bots that became due since the last one. Idempotent: a pass seats
    only tickets still waiting, under their row locks."""
    return matchmaking_sweep()
