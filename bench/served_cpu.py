"""The CPU a served request costs the server process, next to the same request through
Django's in-process test client: ``GET /healthz``, ``GET /matches/{id}`` (the match view),
``GET /me/matches`` (the inbox) and ``POST /matches/{id}/moves`` (a move).

    python -m bench.served_cpu [--requests 200] [--rounds 2] [--server uvicorn|gunicorn]

Both sides run against one fresh PostgreSQL database (``BENCH_DATABASE_URL``, by default
``baloot_bench_cpu``; a ``sqlite:///`` URL measures the embedded default), one request after
another on one keep-alive connection. The served side reads the server process's CPU time
(user + system, all threads, from /proc) around each request; the in-process side reads this
process's own CPU time around each test-client call, so it counts the test client too (which
makes the ratio a slight underestimate; the answer is not parsed). ``/healthz`` answers 503
here (no sweep runs), and logs it, on both sides. A move is measured alone: the view that
finds its legal move is read untimed before it. Each round starts the server afresh, measures
the four operations served, stops it, then measures them in process. Figures are printed,
never asserted; on a shared machine compare runs of one hour only.
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from bench import http as http_bench

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/baloot_bench_cpu"
TICK = os.sysconf("SC_CLK_TCK")
OPERATIONS = ("GET /healthz", "GET /matches/{id}", "GET /me/matches", "POST /moves")


def _cpu_of(pid: int) -> float:
    """User + system CPU seconds of a process, all its threads (dead ones included)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start(env: dict[str, str], server: str, port: int) -> subprocess.Popen[bytes]:
    if server == "uvicorn":  # as make run serves it (scripts/supervise.py)
        command = [
            *(sys.executable, "-m", "uvicorn", "baloot_site.asgi:application"),
            *("--host", "127.0.0.1", "--port", str(port), "--lifespan", "off"),
            *("--ws", "websockets-sansio", "--no-access-log", "--no-proxy-headers"),
        ]
    else:  # as the image serves it (docker/compose.yaml), one worker
        command = [
            *(sys.executable, "-m", "gunicorn", "baloot_site.asgi:application"),
            *(f"--bind=127.0.0.1:{port}", "--workers=1", "--log-level=warning"),
            "--worker-class=uvicorn_worker.UvicornWorker",
        ]
    process = subprocess.Popen(command, cwd=ROOT, env=env)
    for _ in range(200):
        try:
            if http_bench.Client().call("GET", "/api/schema/")[0] == 200:
                return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit(f"{server} did not start")


def _served_pid(process: subprocess.Popen[bytes], server: str) -> int:
    if server == "uvicorn":
        return process.pid
    children = Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text().split()
    return int(children[0])  # gunicorn's one worker


class Table:
    """One four-human match played turn by turn through ``call(token, method, path, body)``."""

    def __init__(self, match_id: int, tokens: list[str], seed: int) -> None:
        self.match_id = match_id
        self.tokens = tokens
        self.rng = random.Random(seed)

    def next_move(self, call: Callable[..., tuple[int, Any]]) -> tuple[str, dict[str, Any]]:
        """The token of the seat to act and a legal move body (untimed reads)."""
        status, view = call(self.tokens[0], "GET", f"/api/v1/matches/{self.match_id}")
        assert status == 200, view
        assert view["status"] == "active", "the bench table finished; raise its target"
        seat = view["round"]["to_act"]
        status, view = call(self.tokens[seat], "GET", f"/api/v1/matches/{self.match_id}")
        legal = view["round"]["legal_moves"]
        # A Gahwa ends the match at once, and a random choice finds one within a few hundred
        # moves: the table is kept going for every round of the bench.
        lasting = [m for m in legal if m.get("call") != "gahwa"] or legal
        move = self.rng.choice(lasting)
        return self.tokens[seat], {**move, "expected_version": view["version"]}


def _measure(
    call: Callable[..., tuple[int, Any]],
    cpu: Callable[[], float],
    table: Table,
    requests: int,
) -> dict[str, float]:
    """CPU seconds per request of each operation, after a warm-up of 20."""
    token = table.tokens[0]
    reads = {
        "GET /healthz": "/healthz",
        "GET /matches/{id}": f"/api/v1/matches/{table.match_id}",
        "GET /me/matches": "/api/v1/me/matches",
    }
    out: dict[str, float] = {}
    for op, path in reads.items():
        for _ in range(20):
            call(token, "GET", path, parse=False)
        start = cpu()
        for _ in range(requests):
            call(token, "GET", path, parse=False)
        out[op] = (cpu() - start) / requests
    spent = 0.0
    for i in range(requests + 20):
        mover, body = table.next_move(call)
        start = cpu()
        path = f"/api/v1/matches/{table.match_id}/moves"
        status, answer = call(mover, "POST", path, body, parse=False)
        if i >= 20:
            spent += cpu() - start
        assert status == 201, (status, answer)
    out["POST /moves"] = spent / requests
    return out


def _served_call(clients: dict[str, http_bench.Client]) -> Callable[..., tuple[int, Any]]:
    def call(
        token: str, method: str, path: str, body: Any = None, parse: bool = True
    ) -> tuple[int, Any]:
        client = clients.setdefault(token, http_bench.Client(token))
        try:
            status, data, _ = client.call(method, path, body)
        except (http.client.RemoteDisconnected, ConnectionError):
            # The server closed the connection after its keep-alive timeout (5 s in uvicorn):
            # a busy machine can leave one seat's connection idle that long between moves.
            clients[token] = client = http_bench.Client(token)
            status, data, _ = client.call(method, path, body)
        return status, data

    return call


def _in_process_call() -> Callable[..., tuple[int, Any]]:
    from django.test import Client

    client = Client()

    def call(
        token: str, method: str, path: str, body: Any = None, parse: bool = True
    ) -> tuple[int, Any]:
        headers = {"Authorization": f"Bearer {token}"}
        if method == "GET":
            response = client.get(path, headers=headers)
        else:
            response = client.post(path, body, content_type="application/json", headers=headers)
        is_json = "json" in response.get("Content-Type", "")
        if not (parse and is_json and response.content):
            return response.status_code, None
        return response.status_code, response.json()

    return call


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--server", choices=("uvicorn", "gunicorn"), default="uvicorn")
    args = parser.parse_args()

    url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB)
    env = http_bench._server_env(url)
    if url.startswith("sqlite"):
        Path(url.removeprefix("sqlite:///")).unlink(missing_ok=True)
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
            cwd=ROOT,
            env=env,
            check=True,
        )
    else:
        http_bench._reset_database(env)
    http_bench.PORT = _free_port()

    # The in-process side runs in this process, on the same database and settings.
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "baloot_site.settings")
    import django

    django.setup()

    server = _start(env, args.server, http_bench.PORT)
    try:
        table = Table(*http_bench.human_table(0), seed=1)
    finally:
        server.terminate()
        server.wait(timeout=15)

    served: dict[str, list[float]] = {op: [] for op in OPERATIONS}
    local: dict[str, list[float]] = {op: [] for op in OPERATIONS}
    for _ in range(args.rounds):
        server = _start(env, args.server, http_bench.PORT)
        try:
            pid = _served_pid(server, args.server)
            figures = _measure(_served_call({}), partial(_cpu_of, pid), table, args.requests)
        finally:
            server.terminate()
            server.wait(timeout=15)
        for op, value in figures.items():
            served[op].append(value)
        figures = _measure(_in_process_call(), time.process_time, table, args.requests)
        for op, value in figures.items():
            local[op].append(value)

    database = "SQLite" if url.startswith("sqlite") else "PostgreSQL"
    print(
        f"CPU per request, {args.server} (served) vs Django's test client (in process), "
        f"{database}, {args.requests} sequential requests x {args.rounds} rounds (medians)"
    )
    print(f"{'operation':<20}{'served ms':>11}{'in-process ms':>15}{'ratio':>8}   runs (served)")
    for op in OPERATIONS:
        s, i = statistics.median(served[op]), statistics.median(local[op])
        runs = ", ".join(f"{v * 1000:.2f}" for v in served[op])
        print(f"{op:<20}{s * 1000:>11.2f}{i * 1000:>15.2f}{s / i:>8.2f}   {runs}")


if __name__ == "__main__":
    main()
