"""Helpers of the drills: racing calls in threads, and stopping and starting the local Redis and
PostgreSQL with the commands CI uses (``.ci/run``)."""

from __future__ import annotations

import shutil
import subprocess
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connection, connections

from tests.support.workers import wait_for


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
    wait_for(lambda: not redis_up(), timeout=15, what="Redis to stop", every=0.2)


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
    wait_for(redis_up, timeout=30, what="Redis to start", every=0.2)


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
    wait_for(postgres_up, timeout=60, what="PostgreSQL to start", every=0.2)


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
