"""Capacity: how many human-paced tables one deployment carries before players feel it.

    python -m bench.capacity [--backend embedded|postgres] [--web 1] [--quick]
                             [--steps 2,5,10,...] [--hold 15] [--settle 3] [--think 3]
                             [--jitter 1] [--bot-share 0.25] [--bot-level easy]
                             [--spectators 2] [--max-seconds 240] [--tree PATH]

Starts, on 127.0.0.1 and against a fresh database, what ``make run`` starts (the commands of
``scripts/supervise.py`` in ``--tree``: the API under uvicorn, the workers of the default, hard
bots' and push queues, beat), with ``--web`` API processes on ports of their own. The embedded
default (SQLite files in a temporary folder, the SQLite broker, the table relay) or, with
``--backend postgres``, PostgreSQL (a fresh ``baloot_bench_capacity`` database), Redis db 9 as
broker and channel layer (the processes joined by it) and Redis db 8 as cache.

Then it ramps the number of tables in ``--steps`` (cumulative: a step adds tables to those
already playing), each step held for ``--hold`` seconds after ``--settle`` seconds:

- four-human tables: four accounts registered through the API, one creates a public match,
  three join; each human reads its turn and legal moves from its own match stream (no
  polling) and posts a move ``--think`` ± ``--jitter`` seconds after its turn came;
- bot tables (``--bot-share`` of the tables): one such human and three ``--bot-level`` bots;
- ``--spectators`` outsiders watching each table on its stream (every table is public).

Each client of a table talks to the web process ``(table + client) % --web``, so with two
processes a move posted to one reaches streams held by the other through the relay.

Per step it prints: tables (four-human / bot), clients (streams), moves committed per second
(and the humans' posts per second), ``POST /moves`` p50/p95 (sent to answered), stream lag
p50/p95 for the seated players (a move item's ``created_at``, its commit, to its arrival on
each seated stream), the spectators' lag p50/p95 (a spectator sees a trick once the next trick
is complete: from the commit of the move that completed it, read off the table's log, to the
arrival of the spectator's view), failed moves and dropped streams, the CPU of the server
processes (web, workers) and of this client in cores, and this client's event-loop lag (when
it is large the client, not the server, is the limit). A step holds when move p95 <=
``--move-p95-ms`` (200), both lags' p95 <= ``--lag-p95-ms`` (500) and under 1% of the moves
failed; a step that does not is held again (``--confirm``, once: this machine is shared) and the
ramp stops at the first step that fails every time, or at ``--max-seconds`` (start-up
included), and the last line names the largest number of tables sustained. Bounded in time,
loopback only; figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import random
import resource
import runpy
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from bisect import bisect_left
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from bench.http import _pct, _server_env
from bench.live import _stamp
from games.levels import BotLevel

ROOT = Path(__file__).resolve().parent.parent
FIRST_PORT = 8770
PG_DB = "baloot_bench_capacity"
PG_URL = f"postgres://postgres@127.0.0.1:5432/{PG_DB}"
BROKER_URL = "redis://127.0.0.1:6379/9"
CACHE_URL = "redis://127.0.0.1:6379/8"
STEPS = "2,5,10,20,30,45,65,90,130,180,250,350,500"
QUICK = {"steps": "2,4", "hold": 6.0, "settle": 2.0, "think": 1.0, "jitter": 0.3}
HTTP_TIMEOUT = 15.0
TICK = 0.05


@dataclass
class Config:
    steps: list[int]
    hold: float = 15.0
    settle: float = 3.0
    think: float = 3.0
    jitter: float = 1.0
    bot_share: float = 0.25
    bot_level: str = BotLevel.EASY
    spectators: int = 2
    move_p95_ms: float = 200.0
    lag_p95_ms: float = 500.0
    max_failed: float = 0.01
    confirm: int = 1
    seed: int = 1


@dataclass
class Table:
    """A match and its move log as its seat 0 received it: (version, round, type, commit)."""

    match_id: int
    bots: bool
    versions: list[int] = field(default_factory=list)
    log: list[tuple[int, str, float]] = field(default_factory=list)

    def note(self, item: dict[str, Any], committed: float) -> None:
        if not self.versions or item["version"] > self.versions[-1]:
            self.versions.append(item["version"])
            self.log.append((item["round"], item["type"], committed))

    def revealed_by(self, version: int, round_number: int | None) -> float | None:
        """When the move that let spectators see up to ``version`` committed: the move itself
        when the round ended with it (the spectator's view is already in the next round),
        else the fourth card played after it in its round (the trick whose completion shows
        the one before); None when not (yet) in the log."""
        i = bisect_left(self.versions, version)
        if i == len(self.versions) or self.versions[i] != version:
            return None
        item_round, _, committed = self.log[i]
        if round_number is not None and round_number != item_round:
            return committed
        plays = 0
        for j in range(i + 1, len(self.log)):
            later_round, kind, committed = self.log[j]
            if later_round != item_round:
                return None
            if kind == "play":
                plays += 1
                if plays == 4:
                    return committed
        return None


@dataclass
class Samples:
    """Everything timed, with the (Unix) time it was taken, so a window is a filter."""

    posts: list[tuple[float, float]] = field(default_factory=list)
    failed: list[tuple[float, int]] = field(default_factory=list)
    lag: list[tuple[float, float]] = field(default_factory=list)
    watched: list[tuple[float, Table, int, int | None]] = field(default_factory=list)
    drops: list[float] = field(default_factory=list)
    ticks: list[tuple[float, float]] = field(default_factory=list)


def _within(pairs: list[tuple[float, float]], lo: float, hi: float) -> list[float]:
    return [value for at, value in pairs if lo <= at < hi]


def _p(values: list[float], q: float) -> str:
    return f"{_pct(values, q):.0f}" if values else "-"


class CpuMeter:
    """CPU seconds of the processes of some sessions (each server process was started in a
    session of its own), by label, read from /proc; and of this process."""

    def __init__(self, sessions: dict[str, list[int]], shared: bool) -> None:
        self.sessions = sessions
        self.shared = shared  # also PostgreSQL's and Redis's (servers others use too)
        self.tick = os.sysconf("SC_CLK_TCK")

    def read(self) -> dict[str, float]:
        of_session: dict[int, float] = {}
        shared = 0.0
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            comm = stat[stat.index("(") + 1 : stat.rindex(")")]
            fields = stat[stat.rindex(")") + 2 :].split()
            seconds = (int(fields[11]) + int(fields[12])) / self.tick
            session = int(fields[3])
            of_session[session] = of_session.get(session, 0.0) + seconds
            if comm in ("postgres", "redis-server"):
                shared += seconds
        out = {
            label: sum(of_session.get(s, 0.0) for s in ids) for label, ids in self.sessions.items()
        }
        if self.shared:
            out["pg+redis"] = shared
            out.update(_pg_counters())
        return out


def _pg_counters() -> dict[str, float]:
    """The bench database's transactions committed and rows written, so far."""
    import psycopg

    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as conn:
        row = conn.execute(
            "SELECT xact_commit, tup_inserted + tup_updated + tup_deleted FROM pg_stat_database"
            " WHERE datname = %s",
            (PG_DB,),
        ).fetchone()
    return {"pg:xact": float(row[0]), "pg:written": float(row[1])} if row else {}


def _client_cpu() -> float:
    times = os.times()
    return times.user + times.system


class Ramp:
    """The clients: tables, their players and spectators, on one event loop."""

    def __init__(self, config: Config, bases: list[str], cpu: CpuMeter | None = None) -> None:
        self.config = config
        self.bases = bases
        self.cpu = cpu
        self.http = [
            httpx.AsyncClient(
                base_url=base,
                timeout=HTTP_TIMEOUT,
                limits=httpx.Limits(max_connections=512, max_keepalive_connections=512),
            )
            for base in bases
        ]
        self.rng = random.Random(config.seed)
        self.samples = Samples()
        self.tables: list[Table] = []
        self.tasks: set[asyncio.Task[None]] = set()
        self.sockets: list[ClientConnection] = []
        self.watchers: list[str] = []
        self.names = itertools.count()
        self.prefix = f"{os.getpid()}x{random.randrange(10**6)}"
        self.setup_failures = 0
        # At the last step measured: (tables, moves/s, web cores, worker cores).
        self.cost: tuple[int, float, float, float] | None = None

    # --- plumbing ---------------------------------------------------------------------------

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _call(
        self, n: int, method: str, path: str, token: str | None = None, body: Any = None
    ) -> tuple[int, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        answer = await self.http[n % len(self.http)].request(
            method, path, json=body, headers=headers
        )
        return answer.status_code, answer

    async def _register(self, n: int) -> str:
        number = next(self.names)
        status, answer = await self._call(
            n,
            "POST",
            "/api/v1/auth/register",
            body={
                "username": f"cap{self.prefix}u{number}",
                "password": "a long bench password",
                "display_name": f"Cap {number}",
            },
        )
        if status != 201:
            raise RuntimeError(f"register answered {status}: {answer.text[:200]}")
        return str(answer.json()["token"])

    async def _open(self, n: int, match_id: int, token: str) -> ClientConnection:
        ws_base = "ws" + self.bases[n % len(self.bases)][len("http") :]
        ws = await connect(
            f"{ws_base}/ws/v1/matches/{match_id}",
            additional_headers={"Authorization": f"Bearer {token}"},
            open_timeout=30,
            max_size=None,
        )
        self.sockets.append(ws)
        return ws

    # --- the clients ------------------------------------------------------------------------

    async def _seat(
        self, ws: ClientConnection, table: Table, seat: int, token: str, n: int
    ) -> None:
        """A seated human: times every move item's arrival, moves when its view says so."""
        opened = time.time()
        answered = -1
        try:
            async for raw in ws:
                now = time.time()
                message = json.loads(raw)
                if message["type"] == "move":
                    item = message["item"]
                    committed = _stamp(item["created_at"])
                    if committed >= opened:  # not the catch-up on connect
                        self.samples.lag.append((now, now - committed))
                    if seat == 0:  # seat 0 keeps the table's log
                        table.note(item, committed)
                elif message["type"] == "view":
                    view = message["view"]
                    if view["status"] != "active":
                        return
                    legal = view["round"]["legal_moves"]
                    if legal and view["version"] > answered:
                        answered = view["version"]
                        self._spawn(self._move(table, token, n, answered, legal))
        except ConnectionClosed:
            self.samples.drops.append(time.time())

    async def _move(
        self, table: Table, token: str, n: int, version: int, legal: list[dict[str, Any]]
    ) -> None:
        config = self.config
        await asyncio.sleep(
            max(0.05, self.rng.uniform(config.think - config.jitter, config.think + config.jitter))
        )
        # No doubling but "pass", as bench.live: a Gahwa could end the match.
        move = self.rng.choice(
            [m for m in legal if m["type"] != "double" or m.get("call") == "pass"] or legal
        )
        started = time.perf_counter()
        try:
            status, _ = await self._call(
                n,
                "POST",
                f"/api/v1/matches/{table.match_id}/moves",
                token,
                {**move, "expected_version": version},
            )
        except httpx.HTTPError:
            status = 0
        took = time.perf_counter() - started
        if status == 201:
            self.samples.posts.append((time.time(), took))
        else:
            self.samples.failed.append((time.time(), status))

    async def _watch(self, ws: ClientConnection, table: Table) -> None:
        """A spectator: notes each new view's arrival (the first, the catch-up, aside)."""
        last: int | None = None
        try:
            async for raw in ws:
                now = time.time()
                message = json.loads(raw)
                if message["type"] != "view":
                    continue
                version = int(message["version"])
                view = message["view"]
                if last is not None and version > last:
                    round_number = (view.get("round") or {}).get("number")
                    self.samples.watched.append((now, table, version, round_number))
                last = version if last is None else max(last, version)
                if view["status"] != "active":
                    return
        except ConnectionClosed:
            self.samples.drops.append(time.time())

    async def _ticker(self) -> None:
        while True:
            before = time.perf_counter()
            await asyncio.sleep(TICK)
            self.samples.ticks.append((time.time(), time.perf_counter() - before - TICK))

    # --- tables -----------------------------------------------------------------------------

    async def _add_table(self, index: int, bots: bool) -> None:
        config = self.config
        options: dict[str, Any] = {"visibility": "public", "target": 10_000, "turn_seconds": 3600}
        if bots:
            tokens = [await self._register(index)]
            options["bots"] = dict.fromkeys("123", config.bot_level)
        else:
            tokens = list(await asyncio.gather(*(self._register(index + s) for s in range(4))))
        status, answer = await self._call(index, "POST", "/api/v1/matches", tokens[0], options)
        if status != 201:
            raise RuntimeError(f"create answered {status}: {answer.text[:200]}")
        table = Table(int(answer.json()["id"]), bots)
        for seat in range(1, len(tokens)):
            status, answer = await self._call(
                index + seat,
                "POST",
                f"/api/v1/matches/{table.match_id}/join",
                tokens[seat],
                {"seat": seat},
            )
            if status != 200:
                raise RuntimeError(f"join answered {status}: {answer.text[:200]}")
        for seat, token in enumerate(tokens):
            ws = await self._open(index + seat, table.match_id, token)
            self._spawn(self._seat(ws, table, seat, token, index + seat))
        for k in range(config.spectators):
            watcher = self.watchers[(index * config.spectators + k) % len(self.watchers)]
            ws = await self._open(index + len(tokens) + k, table.match_id, watcher)
            self._spawn(self._watch(ws, table))
        self.tables.append(table)

    def _is_bot_table(self, index: int) -> bool:
        share = self.config.bot_share
        return int((index + 1) * share) > int(index * share)

    async def _grow(self, target: int) -> None:
        first = len(self.tables) + self.setup_failures
        gate = asyncio.Semaphore(8)

        async def one(index: int) -> None:
            async with gate:
                await self._add_table(index, self._is_bot_table(index))

        results = await asyncio.gather(
            *(one(i) for i in range(first, target)), return_exceptions=True
        )
        for result in results:
            if isinstance(result, BaseException):
                self.setup_failures += 1
                print(f"  a table could not be set up: {result!r}", flush=True)

    # --- the ramp ---------------------------------------------------------------------------

    def _cpu(self) -> dict[str, float]:
        out = self.cpu.read() if self.cpu else {}
        out["client"] = _client_cpu()
        return out

    def _step(
        self, lo: float, hi: float, cpu0: dict[str, float], cpu1: dict[str, float]
    ) -> tuple[bool, str]:
        """Print the step's line; whether it held, and why not."""
        config, samples, seconds = self.config, self.samples, hi - lo
        posts = _within(samples.posts, lo, hi)
        failed = sum(1 for at, _ in samples.failed if lo <= at < hi)
        drops = sum(1 for at in samples.drops if lo <= at < hi)
        lag = _within(samples.lag, lo, hi)
        seen: list[float] = []
        for at, table, version, round_number in samples.watched:
            if lo <= at < hi:
                revealed = table.revealed_by(version, round_number)
                if revealed is not None and revealed <= at + 0.01:
                    seen.append(max(0.0, at - revealed))
        moves = sum(1 for table in self.tables for *_, at in table.log if lo <= at < hi)
        ticks = _within(samples.ticks, lo, hi)
        bot_tables = sum(1 for t in self.tables if t.bots)
        clients = sum((1 if t.bots else 4) + self.config.spectators for t in self.tables)
        cores = {k: (cpu1[k] - cpu0.get(k, 0.0)) / seconds for k in cpu1}
        web = sum(v for k, v in cores.items() if k.startswith("web"))
        servers = self.cpu.sessions if self.cpu else {}
        workers = sum(cores[k] for k in servers if not k.startswith("web"))
        self.cost = (len(self.tables), moves / seconds, web, workers)
        cpu = (
            f"web {web:.2f} workers {workers:.2f} client {cores['client']:.2f}"
            + (f" pg+redis(shared) {cores['pg+redis']:.2f}" if "pg+redis" in cores else "")
            + (
                f"  pg {cores['pg:xact']:.0f} transactions/s ("
                f"{cores['pg:xact'] / max(moves / seconds, 0.01):.1f} a move), "
                f"{cores['pg:written']:.0f} rows written/s"
                if "pg:xact" in cores
                else ""
            )
            if self.cpu
            else f"client+server {cores['client']:.2f}"
        )
        print(
            f"{len(self.tables):>5} ({len(self.tables) - bot_tables}/{bot_tables}) "
            f"{clients:>6} clients  moves/s {moves / seconds:6.1f} (human posts "
            f"{len(posts) / seconds:5.1f})  move p50/p95 {_p(posts, 0.5)}/{_p(posts, 0.95)} ms  "
            f"lag p50/p95 {_p(lag, 0.5)}/{_p(lag, 0.95)} ms  spectators p50/p95 "
            f"{_p(seen, 0.5)}/{_p(seen, 0.95)} ms  failed {failed} dropped {drops}  "
            f"cpu cores: {cpu}  client loop p95 {_p(ticks, 0.95)} ms  "
            f"load {os.getloadavg()[0]:.1f}",
            flush=True,
        )
        reasons = []
        if not posts:
            reasons.append("no move answered")
        elif _pct(posts, 0.95) > config.move_p95_ms:
            reasons.append(f"move p95 {_pct(posts, 0.95):.0f} ms > {config.move_p95_ms:.0f}")
        for name, values in (("lag", lag), ("spectators' lag", seen)):
            if values and _pct(values, 0.95) > config.lag_p95_ms:
                reasons.append(f"{name} p95 {_pct(values, 0.95):.0f} ms > {config.lag_p95_ms:.0f}")
        if failed + drops > config.max_failed * max(1, len(posts)):
            reasons.append(f"{failed} failed moves, {drops} dropped streams")
        return not reasons, "; ".join(reasons)

    async def run(self, deadline: float) -> int:
        """Ramp until a step fails or time runs out; the largest number of tables held."""
        config = self.config
        self._spawn(self._ticker())
        self.watchers = [await self._register(i) for i in range(max(1, min(8, config.spectators)))]
        print(
            f"human-paced: a move {config.think:g} ± {config.jitter:g} s after the turn; "
            f"{config.bot_share:.0%} of the tables one human + 3 {config.bot_level} bots; "
            f"{config.spectators} spectators a table; each step held {config.hold:g} s after "
            f"{config.settle:g} s; holds while move p95 <= {config.move_p95_ms:g} ms and lag "
            f"p95 <= {config.lag_p95_ms:g} ms",
            flush=True,
        )
        print("tables (4h/bot) clients, per step:", flush=True)
        sustained, setup_per_table, why = 0, 0.5, "every step held"
        try:
            for target in config.steps:
                new = target - len(self.tables) - self.setup_failures
                needed = new * setup_per_table + config.settle + config.hold
                if time.time() + needed > deadline:
                    why = f"stopped before {target} tables: --max-seconds reached"
                    break
                started = time.time()
                await asyncio.wait_for(self._grow(target), timeout=max(1.0, deadline - started))
                setup_per_table = max(0.05, (time.time() - started) / max(1, new))
                await asyncio.sleep(config.settle)
                # On a shared machine one window can fail on another job's burst: a step that
                # fails is held again (--confirm times) and fails only if every window did.
                for attempt in range(1 + config.confirm):
                    if attempt and time.time() + config.hold > deadline:
                        break
                    cpu0, lo = self._cpu(), time.time()
                    await asyncio.sleep(max(0.0, min(config.hold, deadline - lo)))
                    cpu1, hi = self._cpu(), time.time()
                    held, reasons = self._step(lo, hi, cpu0, cpu1)
                    if self.setup_failures:
                        held = False
                        reasons = f"{self.setup_failures} tables not set up; {reasons}"
                    if held:
                        break
                if not held:
                    why = f"{target} tables did not hold: {reasons}"
                    break
                sustained = target
        except TimeoutError:
            why = "stopped while setting up: --max-seconds reached"
        print(why, flush=True)
        if self.cpu and self.cost and self.cost[0]:
            tables, moves, web, workers = self.cost
            per_table = (web + workers) / tables
            print(
                f"server CPU at {tables} tables: web {web:.2f} + workers {workers:.2f} cores, "
                f"{per_table * 1000:.1f} core-ms a second a table, "
                f"{(web + workers) / max(moves, 0.01) * 1000:.1f} core-ms a move committed "
                f"(web {web / max(moves, 0.01) * 1000:.1f}); by CPU alone one core carries "
                f"about {1 / max(per_table, 1e-6):.0f} tables",
                flush=True,
            )
        carried = self.tables[:sustained]
        players = sum(1 if t.bots else 4 for t in carried)
        print(
            f"largest sustained: {sustained} tables ({players} players, "
            f"{players + config.spectators * len(carried)} streams)",
            flush=True,
        )
        return sustained

    async def close(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(
                asyncio.gather(*(ws.close() for ws in self.sockets), return_exceptions=True),
                timeout=10,
            )
        for client in self.http:
            await client.aclose()


async def ramp(config: Config, bases: list[str], deadline: float, cpu: CpuMeter | None) -> int:
    """Run the ramp against the API at ``bases`` (``http://host:port``) until ``deadline``."""
    clients = Ramp(config, bases, cpu)
    try:
        return await clients.run(deadline)
    finally:
        await clients.close()


# --- the server side --------------------------------------------------------------------


def _environment(backend: str, var_dir: Path) -> dict[str, str]:
    env = _server_env(PG_URL)
    for name in ("DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL", "CHANNEL_LAYER_URL"):
        env.pop(name, None)
    env.update(
        {
            "BALOOT_VAR_DIR": str(var_dir),
            "LIVE_MAX_CONNECTIONS_PER_USER": "1000000",
            "RATE_WS_TICKET": "100000000/min",
            "CHANNEL_LAYER_PREFIX": "bench-capacity",
            "PYTHONUNBUFFERED": "1",
        }
    )
    if backend == "postgres":
        env.update(
            {"DATABASE_URL": PG_URL, "CELERY_BROKER_URL": BROKER_URL, "CACHE_URL": CACHE_URL}
        )
    return env


def _fresh_services(backend: str) -> None:
    if backend != "postgres":
        return
    import psycopg
    import redis

    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{PG_DB}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{PG_DB}"')
    for url in (BROKER_URL, CACHE_URL):
        redis.Redis.from_url(url).flushdb()


def _processes(tree: Path, ports: list[int]) -> list[tuple[str, list[str], int]]:
    """What ``make run`` starts in ``tree`` (its scripts/supervise.py): (name, command,
    niceness), the API once per port."""
    supervise = runpy.run_path(str(tree / "scripts" / "supervise.py"))
    commands: dict[str, list[str]] = supervise["COMMANDS"]
    niceness: dict[str, int] = supervise.get("NICENESS", {})
    out = []
    for i, port in enumerate(ports):
        command = list(commands["api"])
        command[command.index("--port") + 1] = str(port)
        command[command.index("--host") + 1] = "127.0.0.1"
        out.append((f"web{i + 1}", [*command, "--backlog", "4096", "--log-level", "warning"], 0))
    out += [(name, list(c), niceness.get(name, 0)) for name, c in commands.items() if name != "api"]
    return out


def _start(
    name: str, command: list[str], niceness: int, tree: Path, env: dict[str, str], logs: Path
) -> subprocess.Popen[bytes]:
    def lower() -> None:
        os.nice(niceness)

    return subprocess.Popen(
        command,
        cwd=tree,
        env=env,
        stdout=(logs / f"{name}.log").open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
        preexec_fn=lower if niceness else None,
    )


def _wait_until(check: Callable[[], bool], seconds: float, what: str) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        with contextlib.suppress(Exception):
            if check():
                return
        time.sleep(0.2)
    raise SystemExit(f"bench-capacity: {what} did not start within {seconds:.0f} s")


def _answers(port: int) -> bool:
    return httpx.get(f"http://127.0.0.1:{port}/api/asyncapi/", timeout=2).status_code == 200


def _config(args: argparse.Namespace) -> Config:
    return Config(
        steps=[int(s) for s in str(args.steps).split(",") if s.strip()],
        hold=args.hold,
        settle=args.settle,
        think=args.think,
        jitter=args.jitter,
        bot_share=args.bot_share,
        bot_level=args.bot_level,
        spectators=args.spectators,
        move_p95_ms=args.move_p95_ms,
        lag_p95_ms=args.lag_p95_ms,
        confirm=args.confirm,
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", choices=["embedded", "postgres"], default="embedded")
    parser.add_argument("--web", type=int, default=1, help="API processes (ports from 8770)")
    parser.add_argument("--quick", action="store_true", help="a smoke run: 2 then 4 tables")
    parser.add_argument("--steps", default=STEPS, help="cumulative numbers of tables")
    parser.add_argument("--hold", type=float, default=15.0, help="seconds measured a step")
    parser.add_argument("--settle", type=float, default=3.0, help="seconds before measuring")
    parser.add_argument("--think", type=float, default=3.0, help="a human's seconds a move")
    parser.add_argument("--jitter", type=float, default=1.0)
    parser.add_argument("--bot-share", type=float, default=0.25)
    parser.add_argument("--bot-level", choices=BotLevel.values, default=BotLevel.EASY)
    parser.add_argument("--spectators", type=int, default=2, help="a table")
    parser.add_argument("--move-p95-ms", type=float, default=200.0)
    parser.add_argument("--lag-p95-ms", type=float, default=500.0)
    parser.add_argument("--confirm", type=int, default=1, help="times a failing step is held again")
    parser.add_argument("--max-seconds", type=float, default=240.0)
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout to serve")
    parser.add_argument("--commit", default="", help="names --tree when it is not a checkout")
    args = parser.parse_args(argv)
    if args.quick:
        for name, value in QUICK.items():
            if getattr(args, name) == parser.get_default(name):
                setattr(args, name, value)
        args.max_seconds = min(args.max_seconds, 120.0)
    config = _config(args)
    deadline = time.time() + args.max_seconds
    tree = args.tree.resolve()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 65536)), hard))

    var_dir = Path(tempfile.mkdtemp(prefix="bench-capacity-"))
    env = _environment(args.backend, var_dir)
    ports = [FIRST_PORT + i for i in range(args.web)]
    commit = (
        args.commit
        or subprocess.run(
            ["git", "-C", str(tree), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout.strip()
    )
    kind = (
        "PostgreSQL + Redis, channel layer on Redis"
        if args.backend == "postgres"
        else "SQLite, SQLite broker, table relay"
    )
    print(
        f"bench-capacity: {tree} ({commit or 'not a git checkout'}); backend {args.backend} "
        f"({kind}); {args.web} web process(es) on ports {', '.join(map(str, ports))}; "
        f"cap {args.max_seconds:.0f} s",
        flush=True,
    )
    procs: list[subprocess.Popen[bytes]] = []
    try:
        _fresh_services(args.backend)
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
            cwd=tree,
            env=env,
            check=True,
            capture_output=True,
        )
        sessions: dict[str, list[int]] = {}
        for name, command, niceness in _processes(tree, ports):
            proc = _start(name, command, niceness, tree, env, var_dir)
            procs.append(proc)
            sessions.setdefault(name, []).append(proc.pid)
        for port in ports:
            _wait_until(partial(_answers, port), 90, f"the API on {port}")
        _wait_until(lambda: b" ready." in (var_dir / "worker.log").read_bytes(), 60, "the worker")
        bases = [f"http://127.0.0.1:{port}" for port in ports]
        asyncio.run(ramp(config, bases, deadline, CpuMeter(sessions, args.backend == "postgres")))
    finally:
        for proc in procs:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=5)
        shutil.rmtree(var_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
