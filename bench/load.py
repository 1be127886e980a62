"""Load on the real stack: gunicorn + Celery worker + beat against PostgreSQL and Redis.

    python -m bench.load [--humans 4] [--bot-tables 4] [--seconds 20]

Loopback only and bounded in time. Phases, each printing its figures (never asserted):
1. Play: ``--humans`` tables of four humans and ``--bot-tables`` tables of one human against
   three bots, all at once. Per-operation latency p50/p95/p99, moves per second, errors, bot
   reply latency (human move committed -> next bot move visible), and the broker queue depth
   sampled while it runs (the worker's lag).
2. Floor: the same clients on the framework's floor endpoint (bench/floor.py), and the ratio.
3. Deadlines: tables whose human never moves (turn_seconds=2): how late each timeout fired.
4. Sweep: the cost of one deadline sweep with 1,000 active matches holding future deadlines.
Uses its own database (``baloot_load``) and Redis db 13, created afresh.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from bench.http import (
    PORT,
    Client,
    Timings,
    _pct,
    _reset_database,
    _run_threads,
    _server_env,
    floor_loop,
    human_table,
    play_humans,
    register,
)

ROOT = Path(__file__).resolve().parent.parent
DB_URL = "postgres://postgres@127.0.0.1:5432/baloot_load"
BROKER_URL = "redis://127.0.0.1:6379/13"


def _bot_table(index: int, turn_seconds: int = 600) -> tuple[int, str]:
    (token,) = register(f"b{index}s", 1)
    status, created, _ = Client(token).call(
        "POST",
        "/api/v1/matches",
        {
            "target": 10_000,
            "turn_seconds": turn_seconds,
            "bots": {"1": "normal", "2": "easy", "3": "normal"},
        },
    )
    assert status == 201, created
    return created["id"], token


def _play_against_bots(
    match_id: int, token: str, until: float, timings: Timings, seed: int
) -> None:
    rng = random.Random(seed)
    client = Client(token)
    url = f"/api/v1/matches/{match_id}"
    while time.perf_counter() < until:
        status, view, elapsed = client.call("GET", url)
        timings.add("GET /matches/{id}", elapsed)
        if status != 200:
            timings.errors += 1
            continue
        if not view["round"]["legal_moves"]:
            time.sleep(0.01)
            continue
        move = rng.choice(view["round"]["legal_moves"])
        status, after, elapsed = client.call(
            "POST", f"{url}/moves", {**move, "expected_version": view["version"]}
        )
        timings.add("POST /moves", elapsed)
        if status != 201:
            timings.errors += 1
            continue
        committed = time.perf_counter()
        if after["round"]["to_act"] == 0 or after["status"] != "active":
            continue  # the human leads again: no bot reply to time
        while time.perf_counter() < until + 5:
            status, seen, _ = client.call("GET", url)
            if status == 200 and seen["version"] > after["version"]:
                timings.add("bot reply", time.perf_counter() - committed)
                break
            time.sleep(0.005)


def _sample_queue(stop: threading.Event, depths: list[int]) -> None:
    import redis

    conn = redis.Redis.from_url(BROKER_URL)
    while not stop.is_set():
        depths.append(int(conn.llen("celery")))
        time.sleep(0.25)


def _start(cmd: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        cmd,
        cwd=ROOT,
        env=env,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def _print_table(title: str, rows: list[tuple[str, list[float], float]]) -> None:
    print(title)
    print(f"  {'operation':<22}{'count':>8}{'per s':>9}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}")
    for op, values, seconds in rows:
        if not values:
            continue
        print(
            f"  {op:<22}{len(values):>8}{len(values) / seconds:>9.1f}{_pct(values, 0.5):>9.1f}"
            f"{_pct(values, 0.95):>9.1f}{_pct(values, 0.99):>9.1f}"
        )


def _django_shell(env: dict[str, str], script: str) -> str:
    """Run ``script`` in ``manage.py shell`` against the bench's database; its stdout."""
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-v", "0", "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout


def _deadline_lateness(env: dict[str, str]) -> list[float]:
    script = (
        "from games.models import Move\n"
        "from django.db.models import F\n"
        "out=[]\n"
        "for m in Move.objects.filter(actor='timeout').select_related('match'):\n"
        "    prev=Move.objects.filter(match=m.match, seq=m.seq-1).first()\n"
        "    if prev: out.append((m.created_at-prev.created_at).total_seconds()"
        "-m.match.turn_seconds)\n"
        "print(' '.join(f'{x:.4f}' for x in out))\n"
    )
    return [float(x) for x in _django_shell(env, script).split()]


def _sweep_cost(env: dict[str, str]) -> str:
    script = (
        "import time\n"
        "from datetime import timedelta\n"
        "from django.db import connection\n"
        "from django.utils import timezone\n"
        "from accounts.models import User\n"
        "from games.models import Match, MatchStatus\n"
        "from games.tasks import sweep_deadlines\n"
        "u=User.objects.create_user(username='sweep-owner', password='x'*12)\n"
        "now=timezone.now()\n"
        "Match.objects.bulk_create([Match(created_by=u, status=MatchStatus.ACTIVE, to_act=1,"
        " deadline=now+timedelta(seconds=60+i)) for i in range(1000)])\n"
        "n=Match.objects.filter(status='active', deadline__isnull=False).count()\n"
        "sweep_deadlines()\n"
        "t=time.perf_counter(); runs=200\n"
        "for _ in range(runs): sweep_deadlines()\n"
        "ms=(time.perf_counter()-t)/runs*1000\n"
        "qs=Match.objects.filter(status='active', deadline__lte=now).order_by('deadline')"
        ".values_list('pk','version')[:500]\n"
        "plan=qs.explain(analyze=True)\n"
        "print(f'{n} active matches holding deadlines; one sweep with none due: {ms:.2f} ms')\n"
        "print(plan)\n"
    )
    return _django_shell(env, script)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--humans", type=int, default=4, help="tables of four humans")
    parser.add_argument("--bot-tables", type=int, default=4, help="tables of 1 human + 3 bots")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    args = parser.parse_args()

    env = {
        **_server_env(DB_URL),
        "CELERY_BROKER_URL": BROKER_URL,
        "CACHE_URL": "redis://127.0.0.1:6379/12",
        "BALOOT_SWEEP_SECONDS": "1",
    }
    _reset_database(env)
    subprocess.run(
        [sys.executable, "-m", "celery", "-A", "baloot_site", "purge", "-f"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        check=False,
    )
    logs = ROOT / "var" / "bench-load"
    logs.mkdir(parents=True, exist_ok=True)
    procs = [
        _start(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "baloot_site.wsgi:application",
                "--bind",
                f"127.0.0.1:{PORT}",
                "--workers",
                str(args.workers),
                "--log-level",
                "warning",
            ],
            env,
            logs / "gunicorn.log",
        ),
        _start(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "baloot_site",
                "worker",
                "--concurrency=2",
                "--loglevel=WARNING",
                "--without-gossip",
                "--without-mingle",
            ],
            env,
            logs / "worker.log",
        ),
        _start(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "baloot_site",
                "beat",
                "--loglevel=WARNING",
                "--schedule",
                str(logs / "beat-schedule"),
            ],
            env,
            logs / "beat.log",
        ),
    ]
    try:
        for _ in range(100):
            try:
                if Client().call("GET", "/api/schema/")[0] == 200:
                    break
            except OSError:
                time.sleep(0.1)
        humans = [human_table(i) for i in range(args.humans)]
        bots = [_bot_table(i) for i in range(args.bot_tables)]
        time.sleep(1.0)  # let the bots' opening bids settle

        game = Timings()
        depths: list[int] = []
        stop = threading.Event()
        sampler = threading.Thread(target=_sample_queue, args=(stop, depths))
        sampler.start()
        until = time.perf_counter() + args.seconds
        jobs: list[tuple[Any, tuple[Any, ...]]] = [
            (play_humans, (mid, toks, until, game, i)) for i, (mid, toks) in enumerate(humans)
        ] + [
            (_play_against_bots, (mid, tok, until, game, 100 + i))
            for i, (mid, tok) in enumerate(bots)
        ]
        threads = [threading.Thread(target=f, args=a) for f, a in jobs]
        start = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.perf_counter() - start
        stop.set()
        sampler.join()

        # Like for like: the human tables alone (the bots idle, their human not moving), then
        # the same clients on the floor endpoint, so the ratio compares equal loads.
        alone = Timings()
        alone_wall = _run_threads(
            play_humans,
            [
                (mid, toks, time.perf_counter() + args.seconds / 2, alone, 50 + i)
                for i, (mid, toks) in enumerate(humans)
            ],
        )
        floor = Timings()
        floor_wall = _run_threads(
            floor_loop,
            [(mid, toks[0], time.perf_counter() + args.seconds / 2, floor) for mid, toks in humans],
        )

        late_tables = [_bot_table(1000 + i, turn_seconds=2) for i in range(6)]
        time.sleep(12)
        lateness = _deadline_lateness(env)
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()

    posts = len(game.samples["POST /moves"])
    print(
        f"Load: gunicorn x{args.workers}, Celery worker x2 + beat, PostgreSQL + Redis, "
        f"{args.humans} human tables + {args.bot_tables} bot tables, {args.seconds:.0f}s"
    )
    _print_table(
        "Play phase",
        [(op, v, wall) for op, v in sorted(game.samples.items())],
    )
    print(f"  human moves applied: {posts / wall:.1f}/s; errors: {game.errors}")
    if depths:
        print(
            f"  broker queue depth while playing: mean {sum(depths) / len(depths):.2f}, "
            f"max {max(depths)} ({len(depths)} samples)"
        )
    _print_table("Floor phase", [(op, v, floor_wall) for op, v in floor.samples.items()])
    _print_table(
        "Human tables alone (same clients as the floor phase)",
        [(op, v, alone_wall) for op, v in sorted(alone.samples.items())],
    )
    game_rate = (
        len(alone.samples["POST /moves"]) + len(alone.samples["GET /matches/{id}"])
    ) / alone_wall
    floor_rate = len(floor.samples["POST /bench/floor"]) / floor_wall
    print(
        f"  game requests/s vs floor requests/s: {game_rate:.1f} / {floor_rate:.1f} = "
        f"{game_rate / floor_rate:.2f}; errors: {alone.errors + floor.errors}"
    )
    print(
        f"Deadlines (turn_seconds=2, {len(late_tables)} tables): {len(lateness)} timeouts; "
        f"lateness p50 {_pct(lateness, 0.5):.0f} ms, p95 {_pct(lateness, 0.95):.0f} ms, "
        f"max {max(lateness) * 1000:.0f} ms"
        if lateness
        else "Deadlines: no timeouts seen"
    )
    print("Sweep:")
    print(_sweep_cost(env))


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
