"""The real servers leave the client address to ``BALOOT_TRUSTED_PROXIES`` (issue 30, "One
authority for the client address").

The attack: uvicorn's proxy-header handling is on by default and trusts ``X-Forwarded-For`` from
127.0.0.1 (``FORWARDED_ALLOW_IPS``, gunicorn's ``forwarded_allow_ips``), rewriting the
connection's client address before Django sees it. Under ``make run`` 40 registrations in 26 s
with a rotated ``X-Forwarded-For`` all answered 201 although ``BALOOT_TRUSTED_PROXIES`` was 0,
while the same 40 without the header were cut at 30 by the per-minute limit.

Here the real server commands run on a free port, on an SQLite database of their own migrated
first: ``make run``'s API (``COMMANDS["api"]`` of scripts/supervise.py) and the image's web
server (compose's gunicorn command with its uvicorn worker class). Registrations from loopback
with a rotated ``X-Forwarded-For`` must be cut by the per-address register limit exactly as
without the header; with ``BALOOT_TRUSTED_PROXIES=1`` the address our proxy appended (the last
one) is the client, so rotating it spreads the limit and rotating what comes before it does not.
"""

from __future__ import annotations

import json
import logging
import os
import runpy
import shlex
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.support import tiers

ROOT = Path(__file__).resolve().parents[2]
RATE = 5  # RATE_AUTH per minute, per client address, for the servers started here
TRIES = RATE + 3
START_TIMEOUT = 60.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def make_run_api(port: int) -> list[str]:
    """``make run``'s API command, as scripts/supervise.py starts it, on ``port``."""
    command = list(runpy.run_path(str(ROOT / "scripts" / "supervise.py"))["COMMANDS"]["api"])
    assert command[command.index("--host") + 1] == "127.0.0.1"
    command[command.index("--port") + 1] = str(port)
    return command


def _compose_web() -> list[str]:
    compose = yaml.safe_load((ROOT / "docker" / "compose.yaml").read_text())
    command = compose["services"]["web"]["command"]
    return shlex.split(command) if isinstance(command, str) else [str(c) for c in command]


def image_web(port: int) -> list[str]:
    """The image's web server (compose's ``web`` command: gunicorn with uvicorn's worker), one
    worker on ``port`` of loopback."""
    command = _compose_web()
    assert command[0] == "gunicorn"
    replaced = {"--bind": f"--bind=127.0.0.1:{port}", "--workers": "--workers=1"}
    return [
        sys.executable,
        "-m",
        "gunicorn",
        *(replaced.get(arg.partition("=")[0], arg) for arg in command[1:]),
    ]


SERVERS = {"make run": make_run_api, "image": image_web}


@pytest.fixture(scope="module")
def server_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The servers' environment: embedded defaults in a folder of their own, a migrated SQLite
    database, a low register rate (the per-address hourly budget out of the way)."""
    var = tmp_path_factory.mktemp("server-var")
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("RATE_", "BALOOT_", "CHANNEL_LAYER_", "DJANGO_"))
        and k not in {"FORWARDED_ALLOW_IPS", "WEB_CONCURRENCY", "HOST", "PORT"}
    }
    env.update(
        DJANGO_SETTINGS_MODULE="baloot_site.settings",
        DJANGO_SECRET_KEY="test-client-address-server",
        BALOOT_VAR_DIR=str(var),
        DATABASE_URL=f"sqlite:///{var / 'db.sqlite3'}",
        CELERY_BROKER_URL=f"sqlite:///{var / 'broker.sqlite3'}",
        CACHE_URL="locmemcache://",
        DJANGO_PASSWORD_HASHERS="django.contrib.auth.hashers.MD5PasswordHasher",
        RATE_AUTH=f"{RATE}/min",
        RATE_AUTH_ADDRESS="10000/hour",
        LOG_LEVEL="WARNING",
    )
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=300,
    )
    return env


class Server:
    def __init__(self, command: list[str], env: dict[str, str], log: Path, port: int) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.log = log
        self._names = iter(range(1, 10**6))
        self._prefix = f"p{port}x"  # the servers of this module share one database
        tiers.require("server", "a web server process")
        with log.open("wb") as out:
            self.proc = subprocess.Popen(
                command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT
            )

    def wait_ready(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                pytest.fail(f"the server exited: {self.log.read_text()[-3000:]}")
            try:
                urllib.request.urlopen(f"{self.base}/healthz", timeout=2).close()
                return
            except urllib.error.HTTPError:  # 503 without beat: up all the same
                return
            except OSError:
                time.sleep(0.1)
        pytest.fail(f"the server did not answer in {START_TIMEOUT} s: {self.log.read_text()}")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    def register(self, forwarded_for: str | None = None) -> int:
        """Register a fresh username; the status code."""
        body = {"username": f"{self._prefix}{next(self._names)}", "password": "a long password"}
        headers = {"Content-Type": "application/json"}
        if forwarded_for is not None:
            headers["X-Forwarded-For"] = forwarded_for
        request = urllib.request.Request(
            f"{self.base}/api/v1/auth/register",
            data=json.dumps({**body, "display_name": "Layla"}).encode(),
            headers=headers,
            method="POST",
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return int(response.status)
        except urllib.error.HTTPError as error:
            error.close()
            return int(error.code)


@pytest.fixture
def serve(server_env: dict[str, str], tmp_path: Path) -> Iterator[Any]:
    servers: list[Server] = []

    def start(kind: str, **env: str) -> Server:
        port = _free_port()
        server = Server(
            SERVERS[kind](port), {**server_env, **env}, tmp_path / f"{kind}-{port}.log", port
        )
        servers.append(server)
        server.wait_ready()
        return server

    yield start
    for server in servers:
        server.stop()


def cut_after(statuses: list[int]) -> list[int]:
    return [201] * RATE + [429] * (len(statuses) - RATE)


@pytest.mark.server
@pytest.mark.parametrize("trust_all", [False, True], ids=["default", "FORWARDED_ALLOW_IPS=*"])
@pytest.mark.parametrize("kind", SERVERS)
def test_a_rotated_forwarded_for_from_loopback_buys_no_budget(
    serve: Any, kind: str, trust_all: bool
) -> None:
    # BALOOT_TRUSTED_PROXIES unset: 0, the default. uvicorn's and gunicorn's own setting of
    # which peers may forward (127.0.0.1 and ::1 unless FORWARDED_ALLOW_IPS says) is moot.
    server = serve(kind, **({"FORWARDED_ALLOW_IPS": "*"} if trust_all else {}))
    rotated = [server.register(f"203.0.113.{n}") for n in range(1, TRIES + 1)]
    assert rotated == cut_after(rotated)
    # The same budget as a caller without the header: the socket's peer, 127.0.0.1.
    assert server.register() == 429
    assert server.register("198.51.100.99, 203.0.113.250") == 429


@pytest.mark.server
@pytest.mark.parametrize("kind", SERVERS)
def test_with_one_trusted_proxy_its_appended_address_is_the_client(serve: Any, kind: str) -> None:
    server = serve(kind, BALOOT_TRUSTED_PROXIES="1")
    # What the client wrote before our proxy's entry changes nothing...
    spoofed = [server.register(f"198.51.100.{n}, 203.0.113.7") for n in range(1, TRIES + 1)]
    assert spoofed == cut_after(spoofed)
    # ...the entry our proxy appended is the client: each new one has a budget of its own.
    appended = [server.register(f"198.51.100.1, 203.0.113.{n}") for n in range(8, 8 + TRIES)]
    assert appended == [201] * TRIES


def test_the_image_and_compose_run_the_same_worker_class_with_proxy_headers_off() -> None:
    """Checked without a Docker engine: the Dockerfile's default command and compose's web
    service name one worker class, and uvicorn's configuration under it reads no proxy headers
    even when gunicorn is told to trust every peer's."""
    import gunicorn.config  # type: ignore[import-untyped]
    import gunicorn.glogging  # type: ignore[import-untyped]
    from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

    dockerfile = (ROOT / "docker" / "Dockerfile").read_text()
    (cmd,) = [line for line in dockerfile.splitlines() if line.startswith("CMD ")]
    image = json.loads(cmd.removeprefix("CMD "))
    worker_class = image[image.index("--worker-class") + 1]
    assert f"--worker-class={worker_class}" in _compose_web()

    module, _, name = worker_class.rpartition(".")
    cls = getattr(__import__(module, fromlist=[name]), name)
    cfg = gunicorn.config.Config()
    cfg.set("forwarded_allow_ips", "*")
    # The worker takes over uvicorn's loggers; they are given back afterwards.
    loggers = [logging.getLogger(f"uvicorn.{name}") for name in ("error", "access")]
    saved = [(log.handlers, log.level, log.propagate) for log in loggers]
    try:
        worker = cls(0, os.getpid(), [], None, 30, cfg, gunicorn.glogging.Logger(cfg))
    finally:
        for log, (handlers, level, propagate) in zip(loggers, saved, strict=True):
            log.handlers, log.propagate = handlers, propagate
            log.setLevel(level)
    assert worker.config.proxy_headers is False
    worker.config.app = "baloot_site.asgi:application"
    worker.config.load()
    assert not isinstance(worker.config.loaded_app, ProxyHeadersMiddleware)


def test_make_run_tells_uvicorn_not_to_read_proxy_headers() -> None:
    assert "--no-proxy-headers" in make_run_api(8000)
