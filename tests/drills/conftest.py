"""Drills (issue "Prove it under fire"): shared helpers, and which drills exist where.

The concurrency drill and the worker-kill drill run everywhere. The service-restart drills need
the real services and are not even collected on the embedded defaults, because there is nothing
to restart there (SQLite is a file in this process; the embedded broker is a file):

- ``test_redis_restart.py`` only when ``CELERY_BROKER_URL`` is a Redis URL;
- ``test_postgres_restart.py`` only when ``DATABASE_URL`` points at PostgreSQL.

Both restart the local services with the commands CI uses (``.ci/run``) and always start them
again in a ``finally``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connection, connections

from games.models import Match, Move, Round
from games.replay import state_from_log
from tests.tasks.conftest import worker  # noqa: F401  (the real worker fixture, shared)

PROBLEM = "application/problem+json"

collect_ignore: list[str] = []
if not settings.CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    collect_ignore.append("test_redis_restart.py")
if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
    collect_ignore.append("test_postgres_restart.py")
if os.environ.get("DATABASE_URL") or os.environ.get("CELERY_BROKER_URL"):
    # A drill of what `make run` starts on the embedded defaults.
    collect_ignore.append("test_make_run_chaos.py")


def race(calls: list[Callable[[], Any]]) -> list[Any]:
    """Start every call at the same moment, each in its own thread with its own DB connection
    (closed when the thread ends). An exception is returned in place of a result."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=30)
            results[i] = calls[i]()
        except BaseException as exc:  # surfaced to the caller, which fails the test
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    return results


def assert_log_is_whole(match_id: int) -> None:
    """Nothing lost, nothing doubled: seq without gaps, one move per version, every round
    numbered once, and the replay of the log equal to the stored snapshot."""
    match = Match.objects.get(pk=match_id)
    moves = list(Move.objects.filter(match=match).order_by("seq"))
    assert [m.seq for m in moves] == list(range(1, len(moves) + 1)), "gap or duplicate in seq"
    versions = [m.version for m in moves]
    assert len(set(versions)) == len(versions), "two moves share a version"
    assert versions == sorted(versions), "versions out of order"
    assert all(v <= match.version for v in versions)
    assert match.move_count == len(moves)
    numbers = list(Round.objects.filter(match=match).values_list("number", flat=True))
    assert sorted(numbers) == list(range(1, len(numbers) + 1)), numbers
    assert state_from_log(match) == match.load_state(), "snapshot differs from the log replay"


# --- local services (the same commands as .ci/run) ------------------------------------------


def _wait(check: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def redis_up() -> bool:
    return (
        subprocess.run(
            ["redis-cli", "-h", "127.0.0.1", "-p", "6379", "ping"],
            capture_output=True,
            check=False,
            timeout=10,
        ).stdout.strip()
        == b"PONG"
    )


def redis_stop() -> None:
    subprocess.run(
        ["redis-cli", "-h", "127.0.0.1", "-p", "6379", "shutdown", "nosave"],
        capture_output=True,
        check=False,
        timeout=10,
    )
    _wait(lambda: not redis_up(), 15, "Redis to stop")


def redis_start() -> None:
    if redis_up():
        return
    for folder in ("/var/lib/redis", "/var/log/redis"):
        Path(folder).mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [
            "redis-server",
            "--daemonize",
            "yes",
            "--bind",
            "127.0.0.1 -::1",
            "--port",
            "6379",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            "/var/lib/redis",
            "--logfile",
            "/var/log/redis/ci.log",
        ],
        check=True,
        timeout=15,
    )
    _wait(redis_up, 30, "Redis to start")


def _pg_cluster() -> str:
    return sorted(p.name for p in Path("/etc/postgresql").iterdir())[-1]


def postgres_up() -> bool:
    return (
        subprocess.run(
            ["pg_isready", "-q", "-h", "127.0.0.1", "-p", "5432"], check=False, timeout=10
        ).returncode
        == 0
    )


def postgres_ctl(action: str) -> None:
    subprocess.run(
        ["pg_ctlcluster", "--skip-systemctl-redirect", _pg_cluster(), "main", action],
        capture_output=True,
        check=False,
        timeout=60,
    )


def postgres_start() -> None:
    if not postgres_up():
        postgres_ctl("start")
    _wait(postgres_up, 60, "PostgreSQL to start")


@contextmanager
def services_restored() -> Iterator[None]:
    """Whatever happens inside, Redis and PostgreSQL are running again afterwards (when this
    run uses them), and this process's now-dead database connections are dropped."""
    try:
        yield
    finally:
        if settings.CELERY_BROKER_URL.startswith("redis") and shutil.which("redis-server"):
            redis_start()
        if connection.vendor == "postgresql":
            postgres_start()
        connections.close_all()
