"""PostgreSQL restart drill: the database goes away under live HTTP traffic and comes back.

Collected only when DATABASE_URL is PostgreSQL (see conftest.py): on the embedded defaults the
database is an SQLite file opened inside each process, so there is no server to restart.

The API runs in gunicorn (threads, persistent connections, health checks on) against the test
database, as in production. Four players play one match over real HTTP while a reader polls
other endpoints, the admin included (outside DRF). PostgreSQL is stopped for a few seconds
(fast shutdown: every open connection is cut, requests in flight included) and started again.
Every answer must be a success or a ``503`` problem document (code ``service_unavailable``):
never a 500, never HTML. A move that got a 503 is retried with the same Idempotency-Key. Once
PostgreSQL is back the dead persistent connections are dropped, the match continues, and
nothing is lost: every key that was answered 201 is exactly one move in the log, and the log
replays to the snapshot.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from games.models import Match, Move
from tests.support.api import PROBLEM
from tests.support.drills import postgres_ctl, postgres_start, postgres_up, services_restored
from tests.support.logs import assert_log_is_whole
from tests.support.players import Player
from tests.support.workers import ROOT, database_url

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.server,  # gunicorn
    pytest.mark.services,  # PostgreSQL, restarted
]

OUTAGE_SECONDS = 3.0


@dataclass
class Reply:
    status: int
    content_type: str
    body: Any
    path: str


class Gunicorn:
    def __init__(self, log: Path) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        env = {
            **os.environ,
            "DATABASE_URL": database_url(),
            "DJANGO_DEBUG": "false",
            # The drill polls hard; the rate limits are not what it is about.
            "RATE_READS": "1000000/min",
            "RATE_MOVES": "1000000/min",
        }
        self.log = log
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "baloot_site.wsgi:application",
                "--bind",
                f"127.0.0.1:{self.port}",
                "--workers",
                "2",
                "--threads",
                "4",
                "--worker-class",
                "gthread",
                "--timeout",
                "30",
                "--graceful-timeout",
                "5",
            ],
            cwd=ROOT,
            env=env,
            stdout=log.open("wb"),
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                # No worker runs here, so the sweep check fails; the database must be up.
                if self.call("GET", "/healthz").body["checks"]["database"] == "ok":
                    return
            except OSError:
                pass
            assert self.proc.poll() is None, log.read_text()
            time.sleep(0.1)
        raise AssertionError("gunicorn did not come up\n" + log.read_text())

    def call(
        self,
        method: str,
        path: str,
        *,
        token: str | None = None,
        body: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> Reply:
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}",
            method=method,
            data=json.dumps(body).encode() if body is not None else None,
            headers={
                "Content-Type": "application/json",
                **({"Authorization": f"Bearer {token}"} if token else {}),
                **(headers or {}),
            },
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                status, ctype, raw = (
                    response.status,
                    response.headers["Content-Type"],
                    response.read(),
                )
        except urllib.error.HTTPError as error:
            status, ctype, raw = error.code, error.headers.get("Content-Type", ""), error.read()
        ctype = ctype or ""
        parsed: Any = json.loads(raw) if "json" in ctype and raw else raw.decode(errors="replace")
        return Reply(status, ctype, parsed, path)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


@pytest.fixture
def gunicorn(transactional_db: None, tmp_path: Path) -> Iterator[Gunicorn]:
    server = Gunicorn(tmp_path / "gunicorn.log")
    try:
        yield server
    finally:
        server.stop()


class Traffic:
    """Every reply the clients got, and the Idempotency-Keys answered 201."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.replies: list[tuple[float, Reply]] = []
        self.keys_played: set[str] = set()
        self.failures: list[str] = []

    def record(self, reply: Reply) -> Reply:
        with self.lock:
            self.replies.append((time.monotonic(), reply))
        return reply


def _player_loop(
    server: Gunicorn, match_id: int, token: str, traffic: Traffic, stop: threading.Event
) -> None:
    url = f"/api/v1/matches/{match_id}"
    try:
        while not stop.is_set():
            view = traffic.record(server.call("GET", url, token=token))
            if view.status != 200:
                time.sleep(0.1)
                continue
            legal = view.body["round"]["legal_moves"]
            if view.body["status"] != "active":
                return
            if not legal:
                time.sleep(0.03)
                continue
            key = str(uuid.uuid4())
            body = {**legal[0], "expected_version": view.body["version"]}
            while not stop.is_set():
                played = traffic.record(
                    server.call(
                        "POST",
                        f"{url}/moves",
                        token=token,
                        body=body,
                        headers={"Idempotency-Key": key},
                    )
                )
                if played.status == 201:
                    with traffic.lock:
                        traffic.keys_played.add(key)
                    break
                if played.status != 503:
                    break  # 409 stale etc.: reload the view
                time.sleep(0.2)  # the database is away: retry the same key and body
    except Exception as exc:  # reported by the test, not lost in a thread
        traffic.failures.append(repr(exc))


def _reader_loop(
    server: Gunicorn, token: str, session: str, traffic: Traffic, stop: threading.Event
) -> None:
    try:
        while not stop.is_set():
            traffic.record(server.call("GET", "/api/v1/me/matches", token=token))
            traffic.record(server.call("GET", "/api/v1/me", token=token))
            # The admin runs outside DRF's exception handler (session, auth middleware).
            traffic.record(
                server.call("GET", "/admin/", headers={"Cookie": f"sessionid={session}"})
            )
            traffic.record(server.call("GET", "/healthz"))
            time.sleep(0.05)
    except Exception as exc:
        traffic.failures.append(repr(exc))


def _check_reply(reply: Reply) -> None:
    if reply.path == "/healthz":
        # Health says what is down: 200 JSON, or 503 in the problem shape.
        assert reply.status in (200, 503), reply
        assert reply.content_type.startswith(("application/json", PROBLEM)), reply
        return
    if reply.status == 503:
        assert reply.content_type.startswith(PROBLEM), reply
        assert reply.body["code"] == "service_unavailable", reply
        assert reply.body["status"] == 503
        return
    assert reply.status < 500, reply
    assert "json" in reply.content_type or reply.path == "/admin/", reply


def test_postgres_restart_under_http_traffic(
    gunicorn: Gunicorn, make_player: Callable[..., Player], table: Callable[..., Any]
) -> None:
    view, players = table(target=152)
    match_id = view["id"]
    staff = make_player()
    staff.user.is_staff = staff.user.is_superuser = True
    staff.user.save()
    browser = Client()
    browser.force_login(staff.user)
    session = browser.cookies["sessionid"].value

    def moves() -> int:
        return Move.objects.filter(match_id=match_id).count()

    traffic = Traffic()
    stop = threading.Event()
    threads = [
        threading.Thread(
            target=_player_loop, args=(gunicorn, match_id, p.token, traffic, stop), daemon=True
        )
        for p in players
    ]
    threads.append(
        threading.Thread(
            target=_reader_loop,
            args=(gunicorn, players[0].token, session, traffic, stop),
            daemon=True,
        )
    )
    try:
        for t in threads:
            t.start()
        _until(lambda: moves() >= 8, 30, "play to start")
        with services_restored():
            postgres_ctl("stop")
            down, down_at = time.monotonic(), len(traffic.keys_played)
            time.sleep(OUTAGE_SECONDS)
            assert not postgres_up()
            postgres_start()
            up = time.monotonic()
        _until(
            lambda: len(traffic.keys_played) >= down_at + 12 and time.monotonic() > up + 3.0,
            60,
            "play to resume",
        )
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=60)

    assert not traffic.failures, traffic.failures
    for _, reply in traffic.replies:
        _check_reply(reply)
    outage = [r for at, r in traffic.replies if down <= at <= up]
    statuses = Counter(r.status for r in outage)
    assert statuses[503] > 0, statuses  # the clients did see the database go away
    after = [r for at, r in traffic.replies if at > up + 2.0 and r.path != "/healthz"]
    assert after and all(r.status < 500 for r in after), Counter(r.status for r in after)
    assert any(r.path == "/admin/" and r.status == 200 for r in after)

    # Nothing lost, nothing doubled: one move per key answered 201, and the log is whole.
    match = Match.objects.get(pk=match_id)
    assert match.move_count == len(traffic.keys_played)
    assert_log_is_whole(match_id)
    assert match.status == "active"
    assert gunicorn.proc.poll() is None  # the server itself rode it out


def _until(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if condition():
                return
        except Exception:  # this process's own connection died with the server
            from django.db import connections

            connections.close_all()
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def test_dead_persistent_connections_are_replaced_not_served_as_errors(
    gunicorn: Gunicorn, table: Callable[..., Any]
) -> None:
    """PostgreSQL cuts every gunicorn connection (an admin's pg_terminate_backend, a failover,
    an idle timeout): with CONN_HEALTH_CHECKS the next requests reconnect and succeed."""
    from django.db import connection

    view, players = table()
    url = f"/api/v1/matches/{view['id']}"
    for _ in range(16):  # every gunicorn thread now holds a persistent connection
        assert gunicorn.call("GET", url, token=players[0].token).status == 200
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        (terminated,) = cursor.fetchone()
    assert terminated >= 1
    replies = [gunicorn.call("GET", url, token=players[0].token) for _ in range(16)]
    assert [r.status for r in replies] == [200] * 16, [(r.status, r.body) for r in replies]
