"""Bot moves per second on the embedded defaults (SQLite, the embedded broker, a real worker).

    python -m bench.bot_tables [--tables 8] [--level normal] [--seconds 30] [--tree PATH]

Seats ``--tables`` tables of four bots, starts a Celery worker (concurrency 2, as ``make run``)
and beat, and counts the moves the bots commit during ``--seconds``, after a short warm-up.
Everything runs in the tree at ``--tree`` (this repository by default) against a fresh
``BALOOT_VAR_DIR``, so the same script measures an older checkout too (a ``git worktree``),
which is how the before/after figures in bench/RESULTS.md were taken. Prints figures, asserts none.
"""

from __future__ import annotations

import argparse
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Run inside the tree under test with Django set up: an all-bot table per iteration, its
# creator's seat handed to a bot too (the moderation path an abandoned table takes).
_SEED_TABLES = """
from django.db import transaction
from accounts.models import User
from games import services
owner = User.objects.create_user(username="bench-owner", password=None, display_name="Owner")
for _ in range({tables}):
    bots = {{seat: "{level}" for seat in (1, 2, 3)}}
    match = services.match_create(creator=owner, target=10_000, bots=bots)
    with transaction.atomic():
        services.seat_replace_with_bot(
            match=services.match_lock(match.pk), seat_index=0, level="{level}"
        )
print("seeded")
"""


def _bot_moves(db: Path) -> int:
    # Read-only, outside Django: the bench must not take the write lock it is measuring.
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30) as conn:
        return int(
            conn.execute("SELECT count(*) FROM games_move WHERE actor = 'bot'").fetchone()[0]
        )


def measure(tree: Path, tables: int, level: str, seconds: float, warmup: float) -> float:
    var = Path(tempfile.mkdtemp(prefix="bench-bots-"))
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL")
    }
    env.update({"BALOOT_VAR_DIR": str(var), "PYTHONPATH": str(tree), "LOG_LEVEL": "WARNING"})
    py = sys.executable

    def run(*args: str) -> None:
        subprocess.run([py, *args], cwd=tree, env=env, check=True, capture_output=True)

    run("manage.py", "migrate", "--noinput")
    run("manage.py", "shell", "-c", _SEED_TABLES.format(tables=tables, level=level))
    procs = [
        subprocess.Popen(
            [py, "-m", "celery", "-A", "baloot_site", *args],
            cwd=tree,
            env=env,
            stdout=(var / f"{args[0]}.log").open("wb"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        for args in (
            ["worker", "--concurrency=2", "--without-gossip", "--without-mingle"],
            ["beat", "--schedule", str(var / "beat-schedule")],
        )
    ]
    try:
        time.sleep(warmup)
        db = var / "db.sqlite3"
        start, t0 = _bot_moves(db), time.perf_counter()
        time.sleep(seconds)
        end, t1 = _bot_moves(db), time.perf_counter()
    finally:
        for proc in procs:
            os.killpg(proc.pid, signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
    rate = (end - start) / (t1 - t0)
    print(
        f"{tables} tables of {level} bots, {tree}: {end - start} bot moves in "
        f"{t1 - t0:.1f} s = {rate:.1f} moves/s"
    )
    return rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=8)
    # Not games.levels: the bench also measures older trees (whose seats took ``random``), and
    # the one worker it starts does not consume the hard bots' queue.
    parser.add_argument("--level", default="normal", choices=["random", "easy", "normal"])
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--warmup", type=float, default=8)
    parser.add_argument("--tree", type=Path, default=ROOT)
    args = parser.parse_args()
    measure(args.tree.resolve(), args.tables, args.level, args.seconds, args.warmup)


if __name__ == "__main__":
    main()
