"""A worker stops within a bounded time on SIGTERM (issue "Hardening", 5).

The worst case is the signal reaching the pool's processes too (Ctrl-C in a terminal, a signal
sent to the process group): billiard's pool finaliser could then wait forever on a queue lock
a killed child held, and the worker hung after "Warm shutdown". baloot_site.celery bounds it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from baloot_site.celery import SHUTDOWN_GRACE_SECONDS
from games import tasks
from tests.support.workers import ROOT, database_url

pytestmark = pytest.mark.worker


def test_a_prefork_worker_stops_in_bounded_time_when_its_group_gets_sigterm(
    transactional_db: Any, tmp_path: Path
) -> None:
    env = {**os.environ, "DATABASE_URL": database_url()}
    log = tmp_path / "worker.log"
    worker = subprocess.Popen(
        [
            *(sys.executable, "-m", "celery", "-A", "baloot_site", "worker", "--loglevel=INFO"),
            *("--concurrency=2", "--without-gossip", "--without-mingle", "-Q", "shutdown-test"),
        ],
        cwd=ROOT,
        env=env,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        # Let the pool do some work first: the hang needs children that have run tasks.
        for i in range(20):
            tasks.play_bot_turn.apply_async((10_000_000 + i, 1), queue="shutdown-test")
        deadline = time.monotonic() + 60
        while log.read_text(errors="replace").count("succeeded") < 20:
            assert worker.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()[-3000:]
            time.sleep(0.1)
        os.killpg(worker.pid, signal.SIGTERM)
        # Bounded: the grace, plus the time the process needs to start exiting.
        worker.wait(timeout=SHUTDOWN_GRACE_SECONDS + 15)
    finally:
        if worker.poll() is None:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait()
