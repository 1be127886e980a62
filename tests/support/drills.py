"""Helpers of the drills: racing calls in threads, and stopping and starting the local Redis and
PostgreSQL with the commands CI uses (``.ci/run``)."""

from __future__ import annotations

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
