"""Load on the real stack: gunicorn + Celery workers + beat against PostgreSQL and Redis.

    python -m bench.load [--humans 4] [--easy-tables 2] [--normal-tables 2] [--hard-tables 2]
                         [--seconds 20] [--worker-concurrency 4] [--hard-concurrency 1]

Loopback only and bounded in time. Workers as ``make run`` starts them: one for the default
queue, one for the hard bots' queue (``bots-hard``, at a lower CPU priority). Phases, each
printing its figures (never asserted):
1. Play: ``--humans`` tables of four humans and, per bot level, tables of one human against
   three bots of that level, all at once. Per-operation latency p50/p95/p99, moves per second,
   errors, and the broker queue depths sampled while it runs (the workers' lag). Bot replies
   per level, three ways:
   - reply: the human's ``POST /moves`` answered -> the bot's next move committed, as a
     watcher reading the bot tables' versions from PostgreSQL every 5 ms first sees it
     (``--watch-ms``; one indexed query, no HTTP). What a client on the stream waits for, with
     no polling of the API in it;
   - every bot turn: the move before committed -> the bot's move committed, for every bot
     move (also the second and third bot of a trick): the broker hop, the worker and the
     bot's thinking;
   - seen by polling: the POST answered -> a ``GET`` with ``If-None-Match`` first answers
     200 (the bot moved), polled every ``--poll-ms`` at first and less often as the wait goes
     on (up to 250 ms); it includes part of a poll interval and a GET, which under this load
     take tens of milliseconds.
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
from collections import defaultdict
from dataclasses import dataclass, field
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
from games.levels import BotLevel

ROOT = Path(__file__).resolve().parent.parent
DB_URL = "postgres://postgres@127.0.0.1:5432/baloot_load"
BROKER_URL = "redis://127.0.0.1:6379/13"
LEVELS = tuple(BotLevel.values)
# As scripts/supervise.py runs them (make run).
QUEUES = {"default": "celery", "hard": "bots-hard"}
HARD_WORKER_NICENESS = 10
# A client waiting for a bot polls every --poll-ms at first, then less often, up to this.
POLL_BACKOFF = 1.5
POLL_MAX_SECONDS = 0.25


@dataclass
class Replies:
    """The human moves that handed the turn to a bot: (match, the version the move made, the
    ``perf_counter`` time its POST was answered), by level; and the client-seen reply times."""

    asked: dict[str, list[tuple[int, int, float]]] = field(
        default_factory=lambda: defaultdict(list)
    )
    seen: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    lock: threading.Lock = field(default_factory=threading.Lock)

    def ask(self, level: str, match_id: int, version: int, answered: float) -> None:
        with self.lock:
            self.asked[level].append((match_id, version, answered))

    def saw(self, level: str, seconds: float) -> None:
        with self.lock:
            self.seen[level].append(seconds)


def _bot_table(index: int, level: str, turn_seconds: int = 600) -> tuple[int, str]:
    (token,) = register(f"b{level[0]}{index}s", 1)
    status, created, _ = Client(token).call(
        "POST",
        "/api/v1/matches",
        {"target": 10_000, "turn_seconds": turn_seconds, "bots": dict.fromkeys("123", level)},
    )
    assert status == 201, created
    return created["id"], token


def _play_against_bots(
    match_id: int,
    token: str,
    level: str,
    until: float,
    timings: Timings,
    replies: Replies,
    seed: int,
    poll: float,
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
        replies.ask(level, match_id, after["version"], committed)
        # Wait for the bot as a polling client should: If-None-Match with the ETag of the
        # answer, so an unchanged match costs a 304 rather than a rendered view, and less often
        # the longer the wait (a hard bot's few seconds would otherwise be hundreds of polls).
        etag = client.etag or ""
        wait = poll
        while time.perf_counter() < until + 5:
            time.sleep(wait)
            wait = min(wait * POLL_BACKOFF, POLL_MAX_SECONDS)
            status, _, _ = client.call("GET", url, headers={"If-None-Match": etag})
            if status == 200:
                replies.saw(level, time.perf_counter() - committed)
                break
            if status != 304:
                timings.errors += 1


def _sample_queues(stop: threading.Event, depths: dict[str, list[int]]) -> None:
    import redis

    conn = redis.Redis.from_url(BROKER_URL)
    while not stop.is_set():
        for name, queue in QUEUES.items():
            depths[name].append(int(conn.llen(queue)))
        time.sleep(0.25)


def _start(
    cmd: list[str], env: dict[str, str], log: Path, niceness: int = 0
) -> subprocess.Popen[bytes]:
    def lower_priority() -> None:
        os.nice(niceness)

    return subprocess.Popen(
        cmd,
        cwd=ROOT,
        env=env,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
        preexec_fn=lower_priority if niceness else None,
    )


def _worker(queue: str, node: str, concurrency: int) -> list[str]:
    return [
        *(sys.executable, "-m", "celery", "-A", "baloot_site", "worker", "--loglevel=WARNING"),
        *(f"--queues={queue}", f"--hostname={node}@%h", f"--concurrency={concurrency}"),
        *("-O", "fair", "--without-gossip", "--without-mingle"),
    ]


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


def _print_levels(title: str, by_level: dict[str, list[float]]) -> None:
    print(title)
    print(f"  {'level':<10}{'count':>8}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'max ms':>9}")
    for level in LEVELS:
        values = by_level.get(level) or []
        if values:
            print(
                f"  {level:<10}{len(values):>8}{_pct(values, 0.5):>9.1f}"
                f"{_pct(values, 0.95):>9.1f}{_pct(values, 0.99):>9.1f}{max(values) * 1000:>9.1f}"
            )


@dataclass
class Watcher:
    """Reads the versions of some matches from the database every ``every`` seconds and notes
    when each new version was first seen committed (``perf_counter``)."""

    url: str
    match_ids: list[int]
    every: float
    seen: dict[int, list[tuple[int, float]]] = field(default_factory=lambda: defaultdict(list))
    stop: threading.Event = field(default_factory=threading.Event)

    def run(self) -> None:
        import psycopg

        last: dict[int, int] = {}
        with psycopg.connect(self.url, autocommit=True) as conn:
            query = "SELECT id, version FROM games_match WHERE id = ANY(%s)"
            while not self.stop.is_set():
                rows = conn.execute(query, (self.match_ids,)).fetchall()
                now = time.perf_counter()
                for match_id, version in rows:
                    if version != last.get(match_id):
                        last[match_id] = version
                        self.seen[match_id].append((version, now))
                time.sleep(self.every)

    def first_after(self, match_id: int, version: int) -> float | None:
        """When the match was first seen past ``version``."""
        return next((at for v, at in self.seen[match_id] if v > version), None)


def _move_times(
    env: dict[str, str], match_ids: list[int]
) -> dict[int, dict[int, tuple[str, float]]]:
    """Each move of these matches: {match: {version: (actor, created_at as a Unix time)}}."""
    import psycopg

    url = env["DATABASE_URL"].replace("postgres://", "postgresql://")
    out: dict[int, dict[int, tuple[str, float]]] = defaultdict(dict)
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT match_id, version, actor, extract(epoch FROM created_at)::float8"
            " FROM games_move WHERE match_id = ANY(%s)",
            (match_ids,),
        ).fetchall()
    for match_id, version, actor, at in rows:
        out[match_id][version] = (actor, at)
    return out


def _bot_latencies(
    moves: dict[int, dict[int, tuple[str, float]]],
    tables: dict[int, str],
    replies: Replies,
    watcher: Watcher,
) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Per level: the replies (POST answered -> the bot's move seen committed), and every bot
    turn (the move before -> the bot's move, by their rows), both in seconds."""
    reply: dict[str, list[float]] = defaultdict(list)
    for level, asked in replies.asked.items():
        for match_id, version, answered in asked:
            played = moves[match_id].get(version + 1)
            seen = watcher.first_after(match_id, version)
            if played is not None and played[0] == "bot" and seen is not None:
                reply[level].append(max(0.0, seen - answered))
    turns: dict[str, list[float]] = defaultdict(list)
    for match_id, level in tables.items():
        log = moves[match_id]
        for version, (actor, at) in log.items():
            before = log.get(version - 1)
            if actor == "bot" and before is not None:
                turns[level].append(at - before[1])
    return reply, turns


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
        "qs=Match.objects.filter(deadline__lte=now).order_by('deadline')"
        ".values_list('pk','version')[:500]\n"
        "plan=qs.explain(analyze=True)\n"
        "print(f'{n} active matches holding deadlines; one sweep with none due: {ms:.2f} ms')\n"
        "print(plan)\n"
    )
    return _django_shell(env, script)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--humans", type=int, default=4, help="tables of four humans")
    for level in LEVELS:
        parser.add_argument(
            f"--{level}-tables", type=int, default=2, help=f"tables of 1 human + 3 {level} bots"
        )
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument(
        "--poll-ms", type=float, default=20.0, help="how often a human waiting for a bot polls"
    )
    parser.add_argument(
        "--watch-ms", type=float, default=5.0, help="how often the commit watcher reads"
    )
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument(
        "--worker-concurrency", type=int, default=4, help="the default queue's worker processes"
    )
    parser.add_argument(
        "--hard-concurrency", type=int, default=1, help="the hard bots' worker processes"
    )
    args = parser.parse_args()
    per_level = {level: getattr(args, f"{level}_tables") for level in LEVELS}

    env = {
        **_server_env(DB_URL),
        "CELERY_BROKER_URL": BROKER_URL,
        "CACHE_URL": "redis://127.0.0.1:6379/12",
        "BALOOT_SWEEP_SECONDS": "1",
    }
    _reset_database(env)
    subprocess.run(
        [
            *(sys.executable, "-m", "celery", "-A", "baloot_site", "purge", "-f"),
            f"--queues={','.join(QUEUES.values())}",
        ],
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
                *(sys.executable, "-m", "gunicorn", "baloot_site.wsgi:application"),
                *("--bind", f"127.0.0.1:{PORT}", "--workers", str(args.workers)),
                *("--log-level", "warning"),
            ],
            env,
            logs / "gunicorn.log",
        ),
        _start(
            _worker(QUEUES["default"], "celery", args.worker_concurrency), env, logs / "worker.log"
        ),
        _start(
            _worker(QUEUES["hard"], "hard", args.hard_concurrency),
            env,
            logs / "worker-hard.log",
            niceness=HARD_WORKER_NICENESS,
        ),
        _start(
            [
                *(sys.executable, "-m", "celery", "-A", "baloot_site", "beat"),
                *("--loglevel=WARNING", "--schedule", str(logs / "beat-schedule")),
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
        bots = [
            (*_bot_table(i, level), level)
            for level, count in per_level.items()
            for i in range(count)
        ]
        time.sleep(3.0)  # let the bots' opening bids settle (a hard bot's take seconds)

        game = Timings()
        replies = Replies()
        depths: dict[str, list[int]] = defaultdict(list)
        stop = threading.Event()
        sampler = threading.Thread(target=_sample_queues, args=(stop, depths))
        sampler.start()
        watcher = Watcher(
            env["DATABASE_URL"].replace("postgres://", "postgresql://"),
            [mid for mid, _, _ in bots],
            args.watch_ms / 1000,
        )
        watching = threading.Thread(target=watcher.run)
        watching.start()
        started_at = time.time()
        until = time.perf_counter() + args.seconds
        jobs: list[tuple[Any, tuple[Any, ...]]] = [
            (play_humans, (mid, toks, until, game, i)) for i, (mid, toks) in enumerate(humans)
        ] + [
            (
                _play_against_bots,
                (mid, tok, level, until, game, replies, 100 + i, args.poll_ms / 1000),
            )
            for i, (mid, tok, level) in enumerate(bots)
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
        watcher.stop.set()
        watching.join()
        moves = _move_times(env, [mid for mid, _, _ in bots])

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

        late_tables = [_bot_table(1000 + i, "easy", turn_seconds=2) for i in range(6)]
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

    # Every bot turn of the play phase only (not the bids made while the tables were set up).
    in_play = {
        mid: {v: m for v, m in log.items() if m[1] >= started_at} for mid, log in moves.items()
    }
    reply, turns = _bot_latencies(in_play, {mid: level for mid, _, level in bots}, replies, watcher)
    posts = len(game.samples["POST /moves"])
    tables = ", ".join(f"{n} {level}" for level, n in per_level.items())
    print(
        f"Load: gunicorn x{args.workers}; Celery workers: default queue x"
        f"{args.worker_concurrency}, hard bots' queue x{args.hard_concurrency} (nice "
        f"{HARD_WORKER_NICENESS}); beat; PostgreSQL + Redis; {args.humans} human tables + bot "
        f"tables ({tables}); {args.seconds:.0f}s"
    )
    _print_table(
        "Play phase",
        [(op, v, wall) for op, v in sorted(game.samples.items())],
    )
    print(f"  human moves applied: {posts / wall:.1f}/s; errors: {game.errors}")
    for name, values in depths.items():
        print(
            f"  {name} queue depth while playing: mean {sum(values) / len(values):.2f}, "
            f"max {max(values)} ({len(values)} samples)"
        )
    _print_levels(
        f"Bot reply: the human's POST answered -> the bot's move committed (seen by a "
        f"{args.watch_ms:g} ms database watcher)",
        reply,
    )
    _print_levels("Every bot turn: the move before committed -> the bot's move committed", turns)
    _print_levels(
        f"Bot reply seen by polling (If-None-Match from every {args.poll_ms:.0f} ms, backing off;"
        " includes a GET)",
        replies.seen,
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
