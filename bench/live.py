"""The live stream on this machine: commit-to-client latency with a real worker next to
polling at 1 s, idle WebSocket connections one process holds, fan-out to 1,000 clients.

    python -m bench.live [--seconds 20] [--idle 5000] [--tables 250] [--spectators 500]

Starts, on 127.0.0.1, one uvicorn process (``baloot_site.asgi``) and one Celery worker against
a fresh database: the configured DATABASE_URL / CELERY_BROKER_URL (PostgreSQL + Redis: a fresh
``baloot_bench_live`` database) or, by default, the embedded SQLite files in a temporary folder
(the table relay). Loopback only, bounded in time; figures are printed, never asserted.

1. Latency: humans against three bots; the client plays its seat from the stream. For every
   move item: from the move's commit (its ``created_at``) to its arrival on the socket; for bot
   moves also from the arrival of the move before it (the broker hop and the bot's thinking
   included). Next to it a client polling ``GET /matches/{id}`` every second with
   ``If-None-Match``: from a commit to the first poll that shows it.
2. Idle: ``--idle`` connections to ``/ws/v1/me`` held open; the server's resident memory before
   and after, per connection.
3. Fan-out: ``--tables`` public tables, each a human (played from its stream) and three bots,
   four clients each (the player and three watchers): messages per second delivered in all.
4. Spectators: one public table (a human played from its stream and three bots) watched by
   ``--spectators`` streams (of 10 spectator accounts: one perspective, the outsider's). For every
   view version the spectators receive, the spread from the first spectator receiving it to each
   of the others: p50 / p95, and how many spectators were ever more than 2 s behind the first.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from datetime import datetime
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parent.parent
PORT = 8766
BASE = f"http://127.0.0.1:{PORT}"
WS = f"ws://127.0.0.1:{PORT}"
BOTS = {"1": "easy", "2": "easy", "3": "easy"}


def _env(var_dir: Path) -> dict[str, str]:
    env = {
        **os.environ,
        "BALOOT_VAR_DIR": str(var_dir),
        "LIVE_MAX_CONNECTIONS_PER_USER": "100000",
        "LOG_LEVEL": "WARNING",
    }
    for scope in ("AUTH", "MOVES", "MATCH_CREATE", "JOIN", "READS", "WS_TICKET"):
        env[f"RATE_{scope}"] = "1000000/min"
    env["RATE_AUTH_ADDRESS"] = "1000000/hour"
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith("postgres"):
        base, _, _ = url.rpartition("/")
        subprocess.run(
            ["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", "baloot_bench_live"],
            check=False,
        )
        subprocess.run(
            ["createdb", "-h", "127.0.0.1", "-U", "postgres", "baloot_bench_live"], check=True
        )
        env["DATABASE_URL"] = f"{base}/baloot_bench_live"
    return env


def _http(method: str, path: str, token: str | None = None, body: Any = None) -> tuple[int, Any]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(
        BASE + path,
        data=json.dumps(body).encode() if body is not None else None,
        method=method,
        headers=headers,
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            raw = answer.read()
            return answer.status, json.loads(raw) if raw else None
    except urllib.error.HTTPError as refused:
        return refused.code, None


def _register(n: int) -> str:
    status, body = _http(
        "POST",
        "/api/v1/auth/register",
        body={
            "username": f"bench{n}_{os.getpid()}",
            "password": "a long bench password",
            "display_name": f"Bench {n}",
        },
    )
    assert status == 201, status
    return str(body["token"])


def _stamp(text: str) -> float:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def _line(name: str, values: list[float]) -> str:
    if not values:
        return f"  {name}: no samples"
    return (
        f"  {name}: n={len(values)} p50={_pct(values, 0.5):.0f} ms p95={_pct(values, 0.95):.0f} ms "
        f"p99={_pct(values, 0.99):.0f} ms mean={statistics.fmean(values) * 1000:.0f} ms"
    )


async def _play(
    ws: ClientConnection,
    token: str,
    match_id: int,
    stop: float,
    rng: random.Random,
    sink: dict[str, list[float]] | None,
    moves: list[float] | None = None,
) -> int:
    """Play the human seat from the stream until the match ends or ``stop``; messages seen.
    ``moves`` collects the commit time of every move item the seat receives (a seat sees each
    move as it commits)."""
    answered: set[int] = set()
    last_arrival: float | None = None
    seen = 0
    while time.time() < stop:
        try:
            raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, stop - time.time()))
        except TimeoutError:
            break
        now = time.time()
        seen += 1
        message = json.loads(raw)
        if message["type"] == "move":
            item = message["item"]
            if moves is not None:
                moves.append(_stamp(item["created_at"]))
            if sink is not None:
                sink["commit_to_client"].append(now - _stamp(item["created_at"]))
                if item["actor"] == "bot" and last_arrival is not None:
                    sink["bot_turn_to_client"].append(now - last_arrival)
            last_arrival = now
            continue
        view = message["view"]
        if view["status"] != "active":
            break
        legal = view["round"]["legal_moves"]
        if legal and view["version"] not in answered:
            answered.add(view["version"])
            move = rng.choice([m for m in legal if m["type"] != "double" or m["call"] == "pass"])
            await asyncio.to_thread(
                _http,
                "POST",
                f"/api/v1/matches/{match_id}/moves",
                token,
                {**move, "expected_version": view["version"]},
            )
    return seen


def _poll(token: str, match_id: int, stop: float, out: list[float]) -> None:
    """Poll every second; for each new version seen, how long after its commits."""
    etag = None
    after = 0
    while time.time() < stop:
        tick = time.time()
        request = urllib.request.Request(
            f"{BASE}/api/v1/matches/{match_id}",
            headers={
                "Authorization": f"Bearer {token}",
                **({"If-None-Match": etag} if etag else {}),
            },
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                etag = answer.headers.get("ETag")
                answer.read()
                seen_at = time.time()
                _, log = _http("GET", f"/api/v1/matches/{match_id}/moves?after={after}", token)
                for item in log["results"]:
                    out.append(seen_at - _stamp(item["created_at"]))
                    after = item["version"]
        except urllib.error.HTTPError:
            pass  # 304: nothing new
        time.sleep(max(0.0, 1.0 - (time.time() - tick)))


async def latency(seconds: float) -> None:
    token = _register(0)
    sink: dict[str, list[float]] = {"commit_to_client": [], "bot_turn_to_client": []}
    polled: list[float] = []
    stop = time.time() + seconds
    rng = random.Random(1)
    while time.time() < stop:
        _, created = _http(
            "POST", "/api/v1/matches", token, {"target": 40, "turn_seconds": 600, "bots": BOTS}
        )
        match_id = created["id"]
        poller = asyncio.create_task(asyncio.to_thread(_poll, token, match_id, stop, polled))
        async with connect(
            f"{WS}/ws/v1/matches/{match_id}",
            additional_headers={"Authorization": f"Bearer {token}"},
        ) as ws:
            await _play(ws, token, match_id, stop, rng, sink)
        poller.cancel()
    print("1. latency, one human against three bots (real worker):")
    print(_line("stream, commit -> client", sink["commit_to_client"]))
    print(_line("stream, previous move -> bot move on client", sink["bot_turn_to_client"]))
    print(_line("polling every 1 s, commit -> seen", polled))


def _rss_kib(pid: int) -> int:
    for line in (Path("/proc") / str(pid) / "status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


TICK = os.sysconf("SC_CLK_TCK")


def _cpu_seconds(root: int) -> float:
    """User + system CPU seconds of ``root`` and every live process under it (a Celery
    worker's pool processes are its children), from /proc."""
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            # The command name (field 2) may hold spaces; the fields after its ")" do not.
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # the process ended while we read
        parents[int(entry.name)] = int(fields[1])
        times[int(entry.name)] = (int(fields[11]) + int(fields[12])) / TICK
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        total += times.get(pid, 0.0)
        todo.extend(child for child, parent in parents.items() if parent == pid)
    return total


async def idle(server_pid: int, count: int) -> None:
    token = _register(1)
    await asyncio.sleep(1)
    before = _rss_kib(server_pid)
    held: list[ClientConnection] = []
    started = time.monotonic()
    failed = 0
    headers = {"Authorization": f"Bearer {token}"}
    for batch in range(0, count, 100):
        results = await asyncio.gather(
            *(
                connect(f"{WS}/ws/v1/me", additional_headers=headers, open_timeout=30)
                for _ in range(min(100, count - batch))
            ),
            return_exceptions=True,
        )
        for result in results:
            if isinstance(result, ClientConnection):
                held.append(result)
            else:
                failed += 1
    took = time.monotonic() - started
    await asyncio.sleep(6)  # past one re-check round, so the figure includes it
    alive = sum(1 for ws in held if ws.close_code is None)
    after = _rss_kib(server_pid)
    per = (after - before) / max(1, alive)
    print(
        f"2. idle: {alive} of {count} connections open on one process ({failed} refused), "
        f"opened in {took:.1f} s; server RSS {before / 1024:.0f} -> {after / 1024:.0f} MiB, "
        f"{per:.1f} KiB per connection"
    )
    await asyncio.gather(*(ws.close() for ws in held), return_exceptions=True)


async def fanout(tables: int, seconds: float, server_pid: int, worker_pid: int) -> None:
    token = _register(2)
    watchers = [_register(3 + n) for n in range(3)]
    matches = []
    for _ in range(tables):
        _, created = _http(
            "POST",
            "/api/v1/matches",
            token,
            {"target": 152, "turn_seconds": 600, "bots": BOTS, "visibility": "public"},
        )
        matches.append(created["id"])
    sockets: list[ClientConnection] = []
    for match_id in matches:
        for t in (token, *watchers):
            sockets.append(
                await connect(
                    f"{WS}/ws/v1/matches/{match_id}",
                    additional_headers={"Authorization": f"Bearer {t}"},
                    open_timeout=60,
                    max_size=None,
                )
            )
    counts = [0] * len(sockets)
    lags: list[float] = []
    committed: list[float] = []  # commit times of the move items the seated players saw
    start = time.time()
    stop = start + seconds
    # Where the CPU goes while it runs: whether delivery (the web process) or committing
    # moves (the worker's bots) is what bounds the messages a second.
    cpu_before = _cpu_seconds(server_pid), _cpu_seconds(worker_pid), time.process_time()
    print(
        f"3. fan-out: {len(sockets)} clients connected, measuring for {seconds:.0f} s", flush=True
    )

    async def watch(index: int) -> None:
        ws = sockets[index]
        while time.time() < stop:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, stop - time.time()))
            except TimeoutError:
                return
            counts[index] += 1
            message = json.loads(raw)
            if message["type"] == "move" and _stamp(message["item"]["created_at"]) >= start:
                # Only moves committed since every client connected (not the catch-up).
                lags.append(time.time() - _stamp(message["item"]["created_at"]))

    rng = random.Random(2)
    players = [
        _play(sockets[4 * n], token, match_id, stop, rng, None, committed)
        for n, match_id in enumerate(matches)
    ]
    played = await asyncio.gather(
        *players, *(watch(i) for i in range(len(sockets)) if i % 4), return_exceptions=True
    )
    total = sum(counts) + sum(p for p in played[: len(matches)] if isinstance(p, int))
    took = time.time() - start
    web = _cpu_seconds(server_pid) - cpu_before[0]
    bots = _cpu_seconds(worker_pid) - cpu_before[1]
    clients = time.process_time() - cpu_before[2]
    cores = os.cpu_count() or 1
    moved = sum(1 for at in committed if at >= start)  # not the catch-up on connecting
    print(
        f"3. fan-out: {len(sockets)} clients on {tables} tables for {took:.0f} s: {total} "
        f"messages, {total / took:.0f} messages/s delivered"
    )
    print(_line("watchers, commit -> client", lags))
    print(
        f"   CPU meanwhile ({cores} cores x {took:.0f} s = {cores * took:.0f} core-s): "
        f"web {web:.1f} s ({1000 * web / max(1, total):.2f} ms a message delivered); "
        f"worker {bots:.1f} s ({1000 * bots / max(1, moved):.1f} ms a move committed, "
        f"{moved} moves, {moved / took:.1f}/s); these clients {clients:.1f} s"
    )
    await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)


async def spectators(count: int, seconds: float) -> None:
    token = _register(10)
    watchers = [_register(11 + n) for n in range(10)]
    _, created = _http(
        "POST",
        "/api/v1/matches",
        token,
        {"target": 152, "turn_seconds": 600, "bots": BOTS, "visibility": "public"},
    )
    match_id = created["id"]
    sockets: list[ClientConnection] = []
    for batch in range(0, count, 50):
        sockets.extend(
            await asyncio.gather(
                *(
                    connect(
                        f"{WS}/ws/v1/matches/{match_id}",
                        additional_headers={"Authorization": f"Bearer {watchers[n % 10]}"},
                        open_timeout=60,
                        max_size=None,
                    )
                    for n in range(batch, min(count, batch + 50))
                )
            )
        )
    arrivals: dict[int, dict[int, float]] = {}  # view version -> spectator -> arrival
    start = time.time()
    stop = start + seconds

    async def watch(index: int) -> None:
        ws = sockets[index]
        while time.time() < stop:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, stop - time.time()))
            except TimeoutError:
                return
            now = time.time()
            if isinstance(raw, str) and raw.startswith('{"type": "view"'):
                version = json.loads(raw)["version"]
                arrivals.setdefault(version, {})[index] = now

    async with connect(
        f"{WS}/ws/v1/matches/{match_id}",
        additional_headers={"Authorization": f"Bearer {token}"},
        max_size=None,
    ) as player:
        await asyncio.gather(
            _play(player, token, match_id, stop, random.Random(4), None),
            *(watch(i) for i in range(len(sockets))),
            return_exceptions=True,
        )
    spread: list[float] = []
    behind: set[int] = set()
    complete = 0
    for got in arrivals.values():
        if len(got) < len(sockets):
            continue  # the last version, cut off by the stop; or the catch-up on connecting
        complete += 1
        first = min(got.values())
        for index, at in got.items():
            spread.append(at - first)
            if at - first > 2:
                behind.add(index)
    print(
        f"4. spectators: {len(sockets)} streams on one public match for {time.time() - start:.0f} "
        f"s: {complete} of {len(arrivals)} view versions seen reached every spectator; "
        f"{len(behind)} spectators were ever more than 2 s behind the first"
    )
    print(_line("spread, first spectator -> each spectator", spread))
    await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--idle", type=int, default=5000)
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--spectators", type=int, default=500)
    parser.add_argument(
        "--only", help="a comma-separated choice of latency, idle, fanout, spectators"
    )
    args = parser.parse_args()
    # A SIGTERM (a timeout, Ctrl-C's cousin) still stops the server and the worker below.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 65536)), hard))
    var_dir = Path(tempfile.mkdtemp(prefix="bench-live-"))
    env = _env(var_dir)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True
    )
    server = subprocess.Popen(
        [
            *(sys.executable, "-m", "uvicorn", "baloot_site.asgi:application"),
            *("--host", "127.0.0.1", "--port", str(PORT), "--lifespan", "off"),
            *("--ws", "websockets-sansio", "--no-access-log", "--log-level", "warning"),
            "--backlog=4096",
        ],
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )
    worker = subprocess.Popen(
        [
            *(sys.executable, "-m", "celery", "-A", "baloot_site", "worker", "--beat"),
            *("--schedule", str(var_dir / "beat"), "--concurrency=2", "--loglevel=WARNING"),
            *("--without-gossip", "--without-mingle"),
        ],
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )
    try:
        for _ in range(100):
            with contextlib.suppress(OSError):
                urllib.request.urlopen(f"{BASE}/api/asyncapi/", timeout=2).read()
                break
            time.sleep(0.2)
        relay = "channels-redis" if "redis" in env.get("CELERY_BROKER_URL", "") else "table"
        print(f"bench-live: database {env.get('DATABASE_URL', 'SQLite (embedded)')}, relay {relay}")
        wanted = args.only.split(",") if args.only else ("latency", "idle", "fanout", "spectators")
        if "latency" in wanted:
            asyncio.run(latency(args.seconds))
        if "idle" in wanted and args.idle:
            asyncio.run(idle(server.pid, args.idle))
        if "fanout" in wanted and args.tables:
            asyncio.run(fanout(args.tables, args.seconds, server.pid, worker.pid))
        if "spectators" in wanted and args.spectators:
            asyncio.run(spectators(args.spectators, args.seconds))
    finally:
        for proc in (server, worker):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in (server, worker):
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
        shutil.rmtree(var_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
