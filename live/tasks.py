"""Beat's housekeeping for the live stream."""

from __future__ import annotations

from celery import shared_task

from live import relay


@shared_task(ignore_result=True)
def purge_live_events() -> int:
    return relay.events_purge()
