"""``GET /healthz``: can this service play games right now?

Three parts: the database answers, the broker accepts connections, and the deadline sweep has
completed recently. The sweep runs every ``BALOOT_SWEEP_SECONDS`` only while beat schedules it
and a worker runs it, so a stale sweep means bot turns and deadlines have stopped even though
the web process still answers. Healthy: ``200 {"status": "ok", "checks": {...}}``. Otherwise
``503`` in the problem shape, naming the failing parts in ``detail`` and ``failing``.

Both answers also carry ``push_backlog``: the push notifications that are due and not yet
sent (``due``, and ``oldest_due_seconds``, the wait of the oldest). It is a figure to watch,
not a check: push runs on a worker of its own, and a slow or dead push service must not make
the API look down, so no backlog ever turns the answer into a 503.
"""

from __future__ import annotations

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.utils import timezone

from baloot_site.errors import PROBLEM_CONTENT_TYPE, problem


def _database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return "ok"


def _broker() -> str:
    from baloot_site.celery import app

    with app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=2)
    return "ok"


def _sweep() -> str:
    from games.models import Heartbeat
    from games.tasks import SWEEP_HEARTBEAT

    last = Heartbeat.objects.filter(name=SWEEP_HEARTBEAT).values_list("at", flat=True).first()
    if last is None:
        return "error: no deadline sweep has completed yet (is the worker or beat down?)"
    age = (timezone.now() - last).total_seconds()
    if age > settings.BALOOT["HEALTH_SWEEP_MAX_AGE"]:
        return f"error: no deadline sweep for {age:.0f} s (is the worker or beat down?)"
    return "ok"


def _push_backlog() -> dict[str, object]:
    from live.push.outbox import backlog_read

    try:
        return dict(backlog_read())
    except Exception as exc:  # a figure, never a failure (the database check says if it is down)
        return {"error": exc.__class__.__name__}


def healthz(request: HttpRequest) -> JsonResponse:
    checks: dict[str, str] = {}
    for name, check in (("database", _database), ("broker", _broker), ("sweep", _sweep)):
        try:
            checks[name] = check()
        except Exception as exc:  # report, don't raise: this endpoint exists to say what is down
            checks[name] = f"error: {exc.__class__.__name__}"
    failing = [name for name, result in checks.items() if result != "ok"]
    # Not read when the database is down: one failed connection attempt per answer is enough.
    backlog = _push_backlog() if checks["database"] == "ok" else {"error": "database"}
    if not failing:
        return JsonResponse({"status": "ok", "checks": checks, "push_backlog": backlog})
    detail = "; ".join(f"{name}: {checks[name].removeprefix('error: ')}" for name in failing)
    body = problem(
        503,
        "service_unavailable",
        f"Unhealthy: {detail}",
        failing=failing,
        checks=checks,
        push_backlog=backlog,
    )
    return JsonResponse(body, status=503, content_type=PROBLEM_CONTENT_TYPE)
