"""Chaos drill of the real ``make run`` on the embedded defaults (issue "Hardening").

A copy of the repository runs ``make run`` (the supervisor: API, the default and the hard
bots' workers, beat; SQLite and the SQLite broker) on a free port. Eight players each play
against three easy bots through the HTTP API, starting a new match whenever one ends, until the
default queue's worker has run at least ``BOT_TASKS`` bot tasks; that worker (its whole process
group) is ``kill -9``-ed twice along the way. Then every match is played to its end, and the
drill checks:

- the API answered every request (no connection error, no 5xx) throughout;
- the supervisor restarted that worker exactly twice and nothing else: no task crashed it;
- every match finished, and every move log is whole and replays to the stored snapshot.

It runs on the embedded defaults only (collected by tests/drills/conftest.py when no
DATABASE_URL or CELERY_BROKER_URL is set): it is a drill of what ``make run`` starts.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.worker]

ROOT = Path(__file__).resolve().parents[2]
TABLES = 8
BOT_TASKS = 5000
KILL_AT = (1500, 3500)  # bot tasks run when the worker is killed
TARGET = 60  # short matches, so many of them start and finish during the drill
BOT_TASK_DONE = re.compile(rb"Task games\.tasks\.play_bot_turn\[[^\]]+\] succeeded")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _copy_repository(dest: Path) -> None:
    """The working tree as git sees it (tracked and untracked, not ignored), plus the venv."""
    files = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    for name in filter(None, files):
        source = ROOT / name.decode()
        if source.is_file():
            target = dest / name.decode()
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    (dest / ".venv").symlink_to(ROOT / ".venv")


def _processes_in(directory: Path) -> list[int]:
    """Pids of the processes running in ``directory`` (what the copy's make run started)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "cwd").readlink() == directory:
                    pids.append(int(entry.name))
            except OSError:
                continue
    return pids


def _cmdline(pid: int) -> bytes:
    try:
        return (Path("/proc") / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ")
    except OSError:
        return b""


def _parent(pid: int) -> int:
    # /proc/PID/stat: "pid (comm) state ppid ...", and comm may hold spaces.
    return int((Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[1])


def _worker_pid(directory: Path) -> int:
    """The main process of the default queue's Celery worker (the one playing the easy bots):
    the one the supervisor started (its pool processes are its own children)."""
    for pid in _processes_in(directory):
        command = _cmdline(pid)
        if b"celery" in command and b" worker " in command and b"--queues=celery " in command:
            with contextlib.suppress(OSError):
                if b"supervise.py" in _cmdline(_parent(pid)):
                    return pid
    raise AssertionError("no worker process found")


@dataclass
class Traffic:
    lock: threading.Lock = field(default_factory=threading.Lock)
    requests: int = 0
    failures: list[str] = field(default_factory=list)
    finished: list[int] = field(default_factory=list)

    def fail(self, what: str) -> None:
        with self.lock:
            self.failures.append(what)


class Api:
    def __init__(self, port: int, traffic: Traffic, token: str | None = None) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.traffic = traffic
        self.token = token

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
        request = urllib.request.Request(
            self.base + path,
            method=method,
            data=json.dumps(body).encode() if body is not None else None,
            headers={
                "Content-Type": "application/json",
                **({"Authorization": f"Bearer {self.token}"} if self.token else {}),
            },
        )
        with self.traffic.lock:
            self.traffic.requests += 1
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                status, raw = response.status, response.read()
        except urllib.error.HTTPError as exc:
            status, raw = exc.code, exc.read()
        except OSError as exc:  # refused, reset, timed out: the API did not answer
            self.traffic.fail(f"{method} {path}: {exc!r}")
            return 0, None
        if status >= 500:
            self.traffic.fail(f"{method} {path}: {status} {raw[:300]!r}")
        return status, json.loads(raw) if raw else None


def _play_table(api: Api, index: int, traffic: Traffic, more: threading.Event) -> None:
    """One human against three easy bots: play legal moves; start again while ``more``."""
    rng = random.Random(index)
    while True:
        status, created = api.call(
            "POST",
            "/api/v1/matches",
            {"target": TARGET, "bots": {"1": "easy", "2": "easy", "3": "easy"}},
        )
        assert status == 201, created
        url = f"/api/v1/matches/{created['id']}"
        while True:
            status, view = api.call("GET", url)
            if status != 200:
                time.sleep(0.2)
                continue
            if view["status"] != "active":
                with traffic.lock:
                    traffic.finished.append(view["id"])
                break
            moves = view["round"]["legal_moves"]
            if not moves:
                # A phone polls every second or two; a quarter of a second is still quick
                # enough that the worker, not the pollers, sets the drill's pace.
                time.sleep(0.25)
                continue
            api.call(
                "POST", f"{url}/moves", {**rng.choice(moves), "expected_version": view["version"]}
            )
        if not more.is_set():
            return


_CHECK_MATCHES = """
import json
from games.models import Match, Move
from games.replay import state_from_log
report = []
for match in Match.objects.all():
    seqs = list(Move.objects.filter(match=match).order_by("seq").values_list("seq", flat=True))
    report.append({
        "id": match.pk,
        "status": match.status,
        "moves": len(seqs),
        "log_whole": seqs == list(range(1, len(seqs) + 1)) and match.move_count == len(seqs),
        "replays": state_from_log(match) == match.load_state(),
    })
print("REPORT" + json.dumps(report))
"""


def test_make_run_survives_worker_kills(tmp_path: Path) -> None:
    copy = tmp_path / "repo"
    _copy_repository(copy)
    port = _free_port()
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL", "BALOOT_VAR_DIR")
    }
    # The drill's own clients are not what rate limits are for.
    env.update(
        {
            "PORT": str(port),
            "RATE_READS": "100000/min",
            "RATE_MOVES": "100000/min",
            "RATE_MATCH_CREATE": "100000/min",
            "RATE_AUTH": "100000/min",
            "RATE_AUTH_ADDRESS": "100000/min",
        }
    )
    log_path = tmp_path / "make-run.log"
    # -o: never reinstall from the copy (the venv is shared with this checkout).
    make = subprocess.Popen(
        ["make", "-o", ".venv/.installed-stamp", "run"],
        cwd=copy,
        env=env,
        stdout=log_path.open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    traffic = Traffic()
    try:
        deadline = time.monotonic() + 120
        while Api(port, traffic).call("GET", "/healthz")[0] != 200:
            assert make.poll() is None, log_path.read_text()
            assert time.monotonic() < deadline, log_path.read_text()[-5000:]
            time.sleep(0.5)
        traffic.failures.clear()  # connection refused while it was starting is expected

        players = []
        for i in range(TABLES):
            status, body = Api(port, traffic).call(
                "POST",
                "/api/v1/auth/register",
                {"username": f"chaos{i}", "password": "a long password 7", "display_name": f"C{i}"},
            )
            assert status == 201, body
            players.append(Api(port, traffic, body["token"]))

        more = threading.Event()
        more.set()
        threads = [
            threading.Thread(target=_play_table, args=(api, i, traffic, more), daemon=True)
            for i, api in enumerate(players)
        ]
        for t in threads:
            t.start()

        kills = list(KILL_AT)
        started = time.monotonic()
        while True:
            done = len(BOT_TASK_DONE.findall(log_path.read_bytes()))
            if kills and done >= kills[0]:
                kills.pop(0)
                os.killpg(_worker_pid(copy), signal.SIGKILL)
            if done >= BOT_TASKS and not kills:
                break
            assert time.monotonic() - started < 900, f"only {done} bot tasks in 15 min"
            assert all(t.is_alive() for t in threads), traffic.failures[:5]
            time.sleep(1)
        more.clear()
        for t in threads:
            t.join(timeout=600)
            assert not t.is_alive(), "a match did not finish"
        elapsed = time.monotonic() - started
    finally:
        os.killpg(make.pid, signal.SIGTERM)
        try:
            make.wait(timeout=30)
        finally:
            for pid in _processes_in(copy):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)

    log = log_path.read_bytes()
    bot_tasks = len(BOT_TASK_DONE.findall(log))
    print(
        f"chaos drill: {elapsed:.0f} s, {bot_tasks} bot tasks, {traffic.requests} requests, "
        f"{len(traffic.finished)} matches finished"
    )
    assert traffic.failures == []
    assert b"Unrecoverable error" not in log
    restarts = re.findall(rb"supervisor: ([\w-]+) exited with status (-?\d+)", log)
    assert restarts == [(b"worker", b"-9"), (b"worker", b"-9")], restarts

    check = subprocess.run(
        [str(copy / ".venv/bin/python"), "manage.py", "shell", "-c", _CHECK_MATCHES],
        cwd=copy,
        env=env,
        capture_output=True,
        check=True,
        text=True,
    )
    report = json.loads(check.stdout.split("REPORT", 1)[1])
    assert len(report) == len(traffic.finished) >= TABLES
    for match in report:
        assert match["status"] == "finished", match
        assert match["log_whole"] and match["replays"], match
