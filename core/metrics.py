"""The operators' metrics (Prometheus, ``prometheus_client``): one definition of every family,
and the small helpers the code that measures calls.

Every process records into its own values: the API process, each Celery worker process and
beat. With ``PROMETHEUS_MULTIPROC_DIR`` set (``make run``'s supervisor sets it to
``var/metrics`` and empties it at start), ``prometheus_client`` keeps those values in files
there, and ``GET /metrics`` on the API (``baloot_site.metrics``) adds up every process's files
at scrape time, so one scrape shows the workers' task and bot figures next to the API's
requests and streams. Without it each process keeps its values in memory and ``/metrics``
shows the API process's own (tests, a bare ``runserver``).

Names (all prefixed ``baloot_``), labels in brackets:

- ``http_request_duration_seconds`` [route, method, status]: a request's time in Django, by
  the URL pattern's name (``matches-detail``), never the raw path;
- ``streams_open`` [stream] and ``stream_frames_sent_total`` [stream]: open WebSocket streams
  (``match``, ``me``) and the frames they sent;
- ``stream_lag_seconds`` [stream]: from the commit of a version to the send it caused;
- ``queue_depth`` [queue]: messages waiting in the broker, read at scrape time;
- ``task_queue_wait_seconds`` and ``task_run_seconds`` [queue, task]: a task's wait from its
  publication (or its ETA) to its start, and its run;
- ``bot_think_seconds`` [level]: a bot's decision;
- ``push_sends_total`` [outcome]: push sends per device (``ok``, ``gone``, ``retry``,
  ``failed``, ``deferred``);
- ``sweep_lag_seconds``: how late a due turn was when the deadline sweep took it up.
"""

from __future__ import annotations

import time
from collections.abc import Mapping

from prometheus_client import Counter, Gauge, Histogram

# Request and stream times: from a millisecond to ten seconds.
_FAST = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
# Waits that may run long (a queue backed up, a sweep behind): up to ten minutes.
_SLOW = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0, 600.0)

HTTP_REQUEST_DURATION = Histogram(
    "baloot_http_request_duration_seconds",
    "Time a request spent in Django, by URL pattern name, method and status.",
    ["route", "method", "status"],
    buckets=_FAST,
)
STREAMS_OPEN = Gauge(
    "baloot_streams_open",
    "WebSocket streams open now (match, me).",
    ["stream"],
    multiprocess_mode="livesum",
)
STREAM_FRAMES_SENT = Counter("baloot_stream_frames_sent", "Frames the streams sent.", ["stream"])
STREAM_LAG = Histogram(
    "baloot_stream_lag_seconds",
    "From the commit of a version to the stream's send it caused.",
    ["stream"],
    buckets=_FAST,
)
QUEUE_DEPTH_NAME = "baloot_queue_depth"  # a gauge read from the broker at scrape time
TASK_QUEUE_WAIT = Histogram(
    "baloot_task_queue_wait_seconds",
    "From a task's publication (or its ETA, if later) to its start in a worker.",
    ["queue", "task"],
    buckets=_SLOW,
)
TASK_RUN = Histogram(
    "baloot_task_run_seconds", "A task's run time in a worker.", ["queue", "task"], buckets=_SLOW
)
BOT_THINK = Histogram(
    "baloot_bot_think_seconds",
    "A bot's decision time, by level.",
    ["level"],
    buckets=(0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 5.0),
)
PUSH_SENDS = Counter("baloot_push_sends", "Push sends per device, by outcome.", ["outcome"])
PUSH_OUTCOMES = ("ok", "gone", "retry", "failed", "deferred")
SWEEP_LAG = Histogram(
    "baloot_sweep_lag_seconds",
    "How late a due turn (its deadline passed) was when the deadline sweep took it up.",
    buckets=_SLOW,
)

# The families as a scrape names them (a counter's name ends in _total there).
FAMILIES = (
    "baloot_http_request_duration_seconds",
    "baloot_streams_open",
    "baloot_stream_frames_sent_total",
    "baloot_stream_lag_seconds",
    QUEUE_DEPTH_NAME,
    "baloot_task_queue_wait_seconds",
    "baloot_task_run_seconds",
    "baloot_bot_think_seconds",
    "baloot_push_sends_total",
    "baloot_sweep_lag_seconds",
)


# --- Helpers for the code that measures ------------------------------------------------------


def stream_opened(stream: str) -> None:
    STREAMS_OPEN.labels(stream).inc()


def stream_closed(stream: str) -> None:
    STREAMS_OPEN.labels(stream).dec()


def stream_sent(stream: str, frames: int, committed_at: float | None = None) -> None:
    """``frames`` sent by a ``stream``; ``committed_at`` (epoch seconds), when the send was
    caused by a commit, the time of that commit."""
    if frames:
        STREAM_FRAMES_SENT.labels(stream).inc(frames)
    if committed_at is not None:
        STREAM_LAG.labels(stream).observe(max(0.0, time.time() - committed_at))


def push_sent(counts: Mapping[str, int]) -> None:
    """One delivery's sends per outcome (keys of ``PUSH_OUTCOMES``)."""
    for outcome, count in counts.items():
        if count:
            PUSH_SENDS.labels(outcome).inc(count)


def sweep_lag(seconds: float) -> None:
    SWEEP_LAG.observe(max(0.0, seconds))
