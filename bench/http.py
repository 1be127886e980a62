"""HTTP path on PostgreSQL: moves per second and latency of ``POST /moves`` and
``GET /matches/{id}``, next to the framework's floor (bench/floor.py) on the same server.

    python -m bench.http [--clients 4] [--seconds 8] [--workers 2]

Starts gunicorn on 127.0.0.1 against a fresh database ``baloot_bench`` (or
``BENCH_DATABASE_URL``), creates one four-player match per client thread, and has each client
play its match turn after turn: read the view as the seat to act, post one of its legal moves.
Then the same clients hammer the floor endpoint for the same time. Loopback only, bounded in
time; figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import statistics
import subprocess
import sys
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/baloot_bench"
PORT = 8765


@dataclass
class Timings:
    samples: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, op: str, seconds: float) -> None:
        with self.lock:
            self.samples[op].append(seconds)


class Client:
    """One keep-alive connection with a bearer token."""

    def __init__(self, token: str | None = None) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
        self.token = token
        self.etag: str | None = None  # of the last answer

    def call(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, Any, float]:
        headers = {"Content-Type": "application/json", **(headers or {})}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        payload = json.dumps(body) if body is not None else None
        start = time.perf_counter()
        self.conn.request(method, path, body=payload, headers=headers)
        response = self.conn.getresponse()
        data = response.read()
        elapsed = time.perf_counter() - start
        self.etag = response.getheader("ETag")
        is_json = "json" in (response.getheader("Content-Type") or "")
        return response.status, (json.loads(data) if data and is_json else None), elapsed


def _server_env(database_url: str) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": database_url,
        "BALOOT_BENCH_ENDPOINTS": "1",
        "RATE_MOVES": "100000000/min",
        "RATE_READS": "100000000/min",
        "RATE_AUTH": "100000000/min",
        # The per-address budget of register and login (100/hour) outlives a run in a Redis
        # cache: a third run within the hour was refused its accounts.
        "RATE_AUTH_ADDRESS": "100000000/min",
        "RATE_MATCH_CREATE": "100000000/min",
        "RATE_JOIN": "100000000/min",
        "LOG_LEVEL": "WARNING",
        "DJANGO_PASSWORD_HASHERS": "django.contrib.auth.hashers.MD5PasswordHasher",
    }


def _reset_database(env: dict[str, str]) -> None:
    name = env["DATABASE_URL"].rsplit("/", 1)[1]
    base = env["DATABASE_URL"].rsplit("/", 1)[0] + "/postgres"
    import psycopg

    with psycopg.connect(base.replace("postgres://", "postgresql://"), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True
    )


def _start_server(env: dict[str, str], workers: int) -> subprocess.Popen[bytes]:
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "baloot_site.wsgi:application",
            "--bind",
            f"127.0.0.1:{PORT}",
            "--workers",
            str(workers),
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    for _ in range(100):
        try:
            status, _, _ = Client().call("GET", "/api/schema/")
            if status == 200:
                return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("gunicorn did not start")


def register(prefix: str, n: int) -> list[str]:
    """``n`` new accounts; their tokens."""
    tokens = []
    for i in range(n):
        status, body, _ = Client().call(
            "POST",
            "/api/v1/auth/register",
            {
                "username": f"{prefix}{i}x{random.randrange(10**9)}",
                "password": "bench-pass-123",
                "display_name": f"{prefix}{i}",
            },
        )
        assert status == 201, body
        tokens.append(body["token"])
    return tokens


def human_table(index: int) -> tuple[int, list[str]]:
    """A private match with four human players seated; its id and the seats' tokens."""
    tokens = register(f"h{index}s", 4)
    status, created, _ = Client(tokens[0]).call(
        "POST", "/api/v1/matches", {"visibility": "private", "target": 10_000}
    )
    assert status == 201, created
    for seat in (1, 2, 3):
        status, body, _ = Client(tokens[seat]).call(
            "POST",
            f"/api/v1/matches/{created['id']}/join",
            {"seat": seat, "code": created["invite_code"]},
        )
        assert status == 200, body
    return created["id"], tokens


def play_humans(
    match_id: int, tokens: list[str], until: float, timings: Timings, seed: int
) -> None:
    rng = random.Random(seed)
    clients = [Client(t) for t in tokens]
    seat = 0
    while time.perf_counter() < until:
        status, view, elapsed = clients[seat].call("GET", f"/api/v1/matches/{match_id}")
        timings.add("GET /matches/{id}", elapsed)
        if status != 200:
            timings.errors += 1
            continue
        if view["status"] != "active":
            return  # a Gahwa round can end even a long match
        rnd = view["round"]
        if rnd["to_act"] != seat:
            seat = rnd["to_act"]
            continue
        move = rng.choice(rnd["legal_moves"])
        status, after, elapsed = clients[seat].call(
            "POST",
            f"/api/v1/matches/{match_id}/moves",
            {**move, "expected_version": view["version"]},
        )
        timings.add("POST /moves", elapsed)
        if status != 201:
            timings.errors += 1
            continue
        if after["status"] != "active":
            return
        seat = after["round"]["to_act"]


def floor_loop(match_id: int, token: str, until: float, timings: Timings) -> None:
    client = Client(token)
    while time.perf_counter() < until:
        status, _, elapsed = client.call("POST", f"/bench/floor/{match_id}")
        timings.add("POST /bench/floor", elapsed)
        if status != 201:
            timings.errors += 1


def _run_threads(target: Any, args: list[tuple[Any, ...]]) -> float:
    threads = [threading.Thread(target=target, args=a) for a in args]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - start


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()

    env = _server_env(os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB))
    _reset_database(env)
    server = _start_server(env, args.workers)
    try:
        matches = [human_table(i) for i in range(args.clients)]
        game = Timings()
        wall = _run_threads(
            play_humans,
            [
                (mid, tokens, time.perf_counter() + args.seconds, game, i)
                for i, (mid, tokens) in enumerate(matches)
            ],
        )
        floor = Timings()
        floor_wall = _run_threads(
            floor_loop,
            [
                (mid, tokens[0], time.perf_counter() + args.seconds, floor)
                for mid, tokens in matches
            ],
        )
    finally:
        server.terminate()
        server.wait(timeout=15)

    print(
        f"HTTP on PostgreSQL: gunicorn x{args.workers} sync workers, {args.clients} clients, "
        f"{args.seconds:.0f}s each phase, loopback"
    )
    print(f"{'operation':<22}{'count':>8}{'per s':>10}{'p50 ms':>9}{'p95 ms':>9}")
    rows = [(op, v, wall) for op, v in game.samples.items()]
    rows += [(op, v, floor_wall) for op, v in floor.samples.items()]
    for op, values, seconds in rows:
        print(
            f"{op:<22}{len(values):>8}{len(values) / seconds:>10.1f}"
            f"{_pct(values, 0.5):>9.1f}{_pct(values, 0.95):>9.1f}"
        )
    moves = len(game.samples["POST /moves"]) / wall
    # Each played move costs a GET and a POST; compare the move path's request rate with the
    # floor's request rate, and the POST alone by its latency.
    requests = (len(game.samples["POST /moves"]) + len(game.samples["GET /matches/{id}"])) / wall
    floor_rate = len(floor.samples["POST /bench/floor"]) / floor_wall
    print(f"moves applied per second: {moves:.1f}; errors: {game.errors + floor.errors}")
    print(
        f"game requests/s vs floor requests/s: {requests:.1f} / {floor_rate:.1f} "
        f"= {requests / floor_rate:.2f} (aim >= 0.5)"
    )
    print(
        f"POST /moves p50 vs floor p50: "
        f"{statistics.median(game.samples['POST /moves']) * 1000:.1f} ms / "
        f"{statistics.median(floor.samples['POST /bench/floor']) * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
