"""Real Celery worker processes against the suite's test database and the configured broker:
Redis in CI, the SQLite-file broker on the embedded defaults. The ``worker`` fixture
(tests/conftest.py) starts one per test, with embedded beat, consuming every queue (the
default one, the hard bots' and push's); a test may instead start one worker per queue, as
``make run`` does (``worker_start(queues=...)``)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.db import connection

from games.tasks import DEFAULT_QUEUE, HARD_BOT_QUEUE
from live.push.tasks import PUSH_QUEUE
from tests.support import tiers

ROOT = Path(__file__).resolve().parents[2]
BOTH_QUEUES = (DEFAULT_QUEUE, HARD_BOT_QUEUE)
ALL_QUEUES = (*BOTH_QUEUES, PUSH_QUEUE)


def database_url() -> str:
    """The test database as a URL, for processes started outside this one."""
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


class WorkerProcess:
    """Start, hard-kill and restart ``celery worker`` (with ``-B`` when ``beat``) consuming
    ``queues``, as a separate OS process."""

    def __init__(
        self,
        env: dict[str, str],
        log_dir: Path,
        *,
        queues: tuple[str, ...] = ALL_QUEUES,
        beat: bool = True,
        name: str = "worker",
    ) -> None:
        self.env = env
        self.log_dir = log_dir
        self.queues = queues
        self.beat = beat
        self.name = name
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self) -> None:
        tiers.require("worker", "a Celery worker process")
        self.starts += 1
        log = (self.log_dir / f"{self.name}-{self.starts}.log").open("wb")
        beat = ["--beat", "--schedule", str(self.log_dir / "beat-schedule")] if self.beat else []
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "baloot_site",
                "worker",
                *beat,
                f"--queues={','.join(self.queues)}",
                f"--hostname={self.name}@%h",
                "--pool=solo",
                "--loglevel=INFO",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
            ],
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def kill9(self) -> None:
        assert self.proc is not None
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)

    def logs(self) -> str:
        """What this worker (every start of it) has logged."""
        return "\n".join(
            p.read_text(errors="replace") for p in sorted(self.log_dir.glob(f"{self.name}-*.log"))
        )


def wait_for(
    condition: Callable[[], Any],
    *,
    timeout: float,
    what: str,
    worker: WorkerProcess | None = None,
    every: float = 0.05,
) -> Any:
    """Poll until ``condition()`` is truthy; a bounded wait, not a timing assertion. On a
    timeout the failure shows the tail of ``worker``'s log, if there is one."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(every)
    log = f"\n--- worker log ---\n{worker.logs()[-6000:]}" if worker is not None else ""
    raise AssertionError(f"timed out waiting for {what}{log}")


def worker_start(
    log_dir: Path,
    *,
    queues: tuple[str, ...] = ALL_QUEUES,
    beat: bool = True,
    name: str = "worker",
    purge: bool = True,
    env: dict[str, str] | None = None,
) -> WorkerProcess:
    """Start a worker (by default on empty queues), with one-second sweeps and quick bots;
    ``env`` adds to (or overrides) its environment."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "BALOOT_SWEEP_SECONDS": "1",
        "TOURNAMENT_SWEEP_SECONDS": "1",
        "BALOOT_BOT_TIME_BUDGET": "0.05",
        "BALOOT_HARD_BOT_TIME_BUDGET": "0.05",
        **(env or {}),
    }
    # Stale messages from earlier runs would be harmless no-ops (tasks check the version),
    # but they would slow the worker down; start from empty queues.
    if purge:
        subprocess.run(
            [
                *(sys.executable, "-m", "celery", "-A", "baloot_site", "purge", "-f"),
                f"--queues={','.join(ALL_QUEUES)}",
            ],
            cwd=ROOT,
            env=env,
            capture_output=True,
            check=False,
            timeout=60,
        )
    process = WorkerProcess(env, log_dir, queues=queues, beat=beat, name=name)
    process.start()
    return process
