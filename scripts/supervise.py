"""`make run`: the API, the Celery workers and Celery beat, kept running together.

    .venv/bin/python scripts/supervise.py

Migrates, then starts the five processes on the embedded defaults (or whatever DATABASE_URL /
CELERY_BROKER_URL say) and watches them: the API, the worker of the default queue (the fast
bots, deadlines, the sweep), the worker of the hard bots' queue, the push worker (push
delivery, on a queue of its own), and beat. A process that
dies (a crash, an OOM kill, a ``kill -9``) is started again after a short, growing pause, with
a log line; the others carry on, so the API never goes down because a worker did. Ctrl-C or
SIGTERM stops them all: each gets SIGTERM, and whatever is still running after
``STOP_GRACE_SECONDS`` is killed.

Each child runs in its own session, so a Ctrl-C in the terminal reaches only this supervisor,
which then stops the children in order; a worker's pool processes never get the signal
straight from the terminal.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
HOST = os.environ.get("HOST", "127.0.0.1")
PORT = os.environ.get("PORT", "8000")

STOP_GRACE_SECONDS = 15.0
# A restart waits 1 s, then twice as long after each quick death, up to 30 s; a process that
# stayed up for a minute starts the count again.
RESTART_FIRST_PAUSE = 1.0
RESTART_MAX_PAUSE = 30.0
STABLE_AFTER_SECONDS = 60.0

# The queues (baloot_site/settings.py, CELERY_TASK_ROUTES; games/tasks.py and
# live/push/tasks.py say why each has its own worker).
DEFAULT_QUEUE = "celery"
HARD_BOT_QUEUE = "bots-hard"
PUSH_QUEUE = "push"
ANALYSIS_QUEUE = "analysis"
# The hard bots' worker thinks for a second at a time; at a lower CPU priority, on a machine
# whose cores it shares with the API and the default worker, a hard bot thinks with whatever
# they leave (its budget is wall-clock, so it thinks less deeply rather than longer) instead of
# slowing the fast bots' replies and the API.
HARD_WORKER_NICENESS = 10
# Analysis waits for everything else.
ANALYSIS_WORKER_NICENESS = 19
CELERY_WORKER = (PY, "-m", "celery", "-A", "baloot_site", "worker", "--loglevel=INFO")
# Each worker hands a task only to an idle pool process (-O fair), so a short task never waits
# behind a long one on a busy process while another process is free.
WORKER_OPTIONS = ("-O", "fair", "--without-gossip", "--without-mingle")
# Processes of the default queue's worker: enough that a fast bot's reply seldom waits for a
# normal bot's search (up to BALOOT_BOT_TIME_BUDGET) to free one (bench/RESULTS.md, "Load"). More
# processes than cores cost the searches samples under load, not time: their budgets are
# wall-clock.
DEFAULT_WORKER_CONCURRENCY = 4
# Processes of the push worker (live/push/tasks.py): a delivery mostly waits on a push service,
# at most a few seconds a send (PUSH_CONNECT_TIMEOUT_SECONDS, PUSH_TIMEOUT_SECONDS), and no
# more than PUSH_HOST_CONCURRENCY (3) of them wait on one host, so one slow host leaves a
# process free for the others.
PUSH_WORKER_CONCURRENCY = 4

COMMANDS: dict[str, list[str]] = {
    # ASGI: the HTTP API and the WebSocket streams (live/) on one port. --no-proxy-headers:
    # the client address is BALOOT_TRUSTED_PROXIES' to decide (core/client_ip.py); uvicorn's
    # default would rewrite it from X-Forwarded-For for any request from 127.0.0.1.
    "api": [
        *(PY, "-m", "uvicorn", "baloot_site.asgi:application", "--host", HOST, "--port", PORT),
        *("--lifespan", "off", "--ws", "websockets-sansio", "--no-access-log"),
        "--no-proxy-headers",
    ],
    "worker": [
        *CELERY_WORKER,
        *(f"--queues={DEFAULT_QUEUE}", "--hostname=celery@%h"),
        f"--concurrency={DEFAULT_WORKER_CONCURRENCY}",
        *WORKER_OPTIONS,
    ],
    "worker-hard": [
        *CELERY_WORKER,
        *(f"--queues={HARD_BOT_QUEUE}", "--hostname=hard@%h", "--concurrency=1"),
        *WORKER_OPTIONS,
    ],
    "worker-push": [
        *CELERY_WORKER,
        *(f"--queues={PUSH_QUEUE}", "--hostname=push@%h"),
        f"--concurrency={PUSH_WORKER_CONCURRENCY}",
        *WORKER_OPTIONS,
    ],
    # Post-game analysis (games.tasks.analyse_match): one process, at the lowest priority.
    "worker-analysis": [
        *CELERY_WORKER,
        *(f"--queues={ANALYSIS_QUEUE}", "--hostname=analysis@%h", "--concurrency=1"),
        *WORKER_OPTIONS,
    ],
    "beat": [PY, "-m", "celery", "-A", "baloot_site", "beat", "--loglevel=INFO"],
}
NICENESS = {"worker-hard": HARD_WORKER_NICENESS, "worker-analysis": ANALYSIS_WORKER_NICENESS}


def say(message: str) -> None:
    print(f"{time.strftime('%Y-%m-%d %H:%M:%S')} supervisor: {message}", flush=True)


def _lower_priority(niceness: int) -> Callable[[], None]:
    # Runs in the child before it execs the command (this process has no other threads).
    def apply() -> None:
        os.nice(niceness)

    return apply


@dataclass
class Child:
    name: str
    command: list[str]
    niceness: int = 0
    proc: subprocess.Popen[bytes] | None = None
    started_at: float = 0.0
    pause: float = RESTART_FIRST_PAUSE
    restart_at: float | None = None
    restarts: int = field(default=0)

    def start(self) -> None:
        self.proc = subprocess.Popen(
            self.command,
            cwd=ROOT,
            start_new_session=True,
            preexec_fn=_lower_priority(self.niceness) if self.niceness else None,
        )
        self.started_at = time.monotonic()
        self.restart_at = None
        say(f"{self.name} started (pid {self.proc.pid})")

    def check(self) -> None:
        """Notice a death and schedule the restart; carry out a restart that is due."""
        now = time.monotonic()
        if self.restart_at is not None:
            if now >= self.restart_at:
                self.restarts += 1
                self.start()
            return
        assert self.proc is not None
        code = self.proc.poll()
        if code is None:
            return
        _metrics_forget(self.proc.pid)
        if now - self.started_at >= STABLE_AFTER_SECONDS:
            self.pause = RESTART_FIRST_PAUSE
        say(f"{self.name} exited with status {code}; restarting in {self.pause:.0f} s")
        self.restart_at = now + self.pause
        self.pause = min(self.pause * 2, RESTART_MAX_PAUSE)

    def signal(self, signum: int) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signum)

    def kill_group(self) -> None:
        if self.proc is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)


def _metrics_dir() -> Path:
    """Where every process keeps its values for GET /metrics (prometheus_client's multiprocess
    mode, core/metrics.py): PROMETHEUS_MULTIPROC_DIR, else var/metrics. Emptied here, before
    any process starts, as the library requires (a previous run's counters would add up)."""
    configured = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    var = Path(os.environ.get("BALOOT_VAR_DIR") or ROOT / "var")
    directory = Path(configured) if configured else var / "metrics"
    if directory.is_dir():
        shutil.rmtree(directory)
    directory.mkdir(parents=True)
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(directory)  # the children inherit it
    return directory


def _metrics_forget(pid: int) -> None:
    """A dead process's live gauges (open streams) leave the sum; its counters stay."""
    directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if directory:
        for stale in Path(directory).glob(f"gauge_live*_{pid}.db"):
            stale.unlink(missing_ok=True)


def main() -> int:
    say(f"metrics: {_metrics_dir()}")
    subprocess.run([PY, "manage.py", "migrate", "--noinput"], cwd=ROOT, check=True)
    children = [Child(name, command, NICENESS.get(name, 0)) for name, command in COMMANDS.items()]
    stopping: list[int] = []

    def stop(signum: int, _frame: object) -> None:
        stopping.append(signum)

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    for child in children:
        child.start()
    say(f"API: http://{HOST}:{PORT}/api/v1/  Swagger UI: http://{HOST}:{PORT}/api/docs/")
    say(f"Streams: ws://{HOST}:{PORT}/ws/v1/matches/ID and ws://{HOST}:{PORT}/ws/v1/me")
    while not stopping:
        for child in children:
            child.check()
        time.sleep(0.2)

    say("stopping")
    for child in children:
        child.signal(signal.SIGTERM)
    deadline = time.monotonic() + STOP_GRACE_SECONDS
    for child in children:
        if child.proc is None:
            continue
        try:
            child.proc.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            say(f"{child.name} did not stop within {STOP_GRACE_SECONDS:.0f} s; killing it")
        # A worker's pool processes and anything else left in the child's session.
        child.kill_group()
    say("stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
