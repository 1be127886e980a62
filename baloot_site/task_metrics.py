"""Task latency per queue for ``GET /metrics`` (``core.metrics``): a message carries the time
it was published in its headers; a worker measures the wait from then (or from its ETA, a
turn's deadline, if later) to the task's start, and the task's run. Connected by the Celery app
(baloot_site/celery.py) in every process that publishes or runs tasks."""

from __future__ import annotations

import os
import threading
import time
from datetime import datetime
from typing import Any

from django.conf import settings

from core import metrics

# --- Celery tasks ----------------------------------------------------------------------------

# The time a message was published, in its headers (the worker sees them on task.request).
SENT_AT = "baloot_sent_at"
_started: dict[str, float] = {}
_started_lock = threading.Lock()


def _queue_of(task: Any) -> str:
    info = getattr(task.request, "delivery_info", None) or {}
    queue = info.get("routing_key")
    if queue:
        return str(queue)
    route = settings.CELERY_TASK_ROUTES.get(task.name, {})
    return str(route.get("queue", settings.CELERY_TASK_DEFAULT_QUEUE))


def _sent_at(request: Any) -> float | None:
    value = getattr(request, SENT_AT, None)
    if value is None:
        value = (getattr(request, "headers", None) or {}).get(SENT_AT)
    try:
        return float(value) if value is not None else None
    except (TypeError, ValueError):
        return None


def _eta_of(request: Any) -> float | None:
    eta = getattr(request, "eta", None)
    if not eta:
        return None
    try:
        moment = eta if isinstance(eta, datetime) else datetime.fromisoformat(str(eta))
    except ValueError:
        return None
    return moment.timestamp()


def on_before_publish(headers: dict[str, Any] | None = None, **_kwargs: Any) -> None:
    if headers is not None:
        headers.setdefault(SENT_AT, time.time())


def on_task_prerun(task_id: str = "", task: Any = None, **_kwargs: Any) -> None:
    if task is None:
        return
    now = time.time()
    sent = _sent_at(task.request)
    if sent is not None:
        # A task with an ETA (a turn's deadline) waits from then, not from its publication.
        since = max(sent, _eta_of(task.request) or sent)
        metrics.TASK_QUEUE_WAIT.labels(_queue_of(task), task.name).observe(max(0.0, now - since))
    with _started_lock:
        _started[task_id] = time.perf_counter()


def on_task_postrun(task_id: str = "", task: Any = None, **_kwargs: Any) -> None:
    with _started_lock:
        started = _started.pop(task_id, None)
    if task is None or started is None:
        return
    metrics.TASK_RUN.labels(_queue_of(task), task.name).observe(time.perf_counter() - started)


def on_process_exit(pid: int | None = None, **_kwargs: Any) -> None:
    """A worker process ending: its live gauges leave the sum (core.metrics)."""
    directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if directory:
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(pid or os.getpid(), directory)


def connect_celery() -> None:
    from celery.signals import (
        before_task_publish,
        task_postrun,
        task_prerun,
        worker_process_shutdown,
    )

    before_task_publish.connect(on_before_publish, weak=False)
    task_prerun.connect(on_task_prerun, weak=False)
    task_postrun.connect(on_task_postrun, weak=False)
    worker_process_shutdown.connect(on_process_exit, weak=False)
