"""The live stream in tests: the ASGI app served by uvicorn (a thread of the test process, or
separate processes for scale-out) and a small blocking WebSocket client."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import uvicorn
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.support import tiers
from tests.support.workers import ROOT, database_url


class ThreadServer:
    """uvicorn serving ``baloot_site.asgi`` in a thread, against the test database."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        config = uvicorn.Config(
            "baloot_site.asgi:application",
            lifespan="off",
            log_level="warning",
            ws="websockets-sansio",
            # A consumer on channels-redis ends only once its channel's blocking read returns
            # (up to 5 s after it was cancelled); shutdown need not wait for that.
            timeout_graceful_shutdown=1,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ThreadServer:
        tiers.require("server", "uvicorn")
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            assert time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()


class ProcessServer:
    """uvicorn in a process of its own (scale-out: two web processes)."""

    def __init__(self, log_dir: Path, name: str) -> None:
        tiers.require("server", "a uvicorn process")
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        env = {**os.environ, "DATABASE_URL": database_url()}
        self.log = (log_dir / f"{name}.log").open("wb")
        self.proc = subprocess.Popen(
            [
                *(sys.executable, "-m", "uvicorn", "baloot_site.asgi:application"),
                *("--host", "127.0.0.1", "--port", str(self.port), "--lifespan", "off"),
                *("--ws", "websockets-sansio", "--timeout-graceful-shutdown", "1"),
            ],
            cwd=ROOT,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                assert self.proc.poll() is None, "uvicorn exited"
                assert time.monotonic() < deadline, "uvicorn did not start"
                time.sleep(0.1)

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)
        self.log.close()


def log_of(player: Any, match_id: int) -> list[dict[str, Any]]:
    """The whole move log of a match as ``player`` reads it over HTTP, page by page."""
    items: list[dict[str, Any]] = []
    while True:
        after = items[-1]["version"] if items else 0
        answer = player.client.get(f"/api/v1/matches/{match_id}/moves", {"after": after})
        assert answer.status_code == 200, answer.content
        items.extend(answer.json()["results"])
        if answer.json()["next"] is None:
            return items


def log_from_stream(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The move log a client builds from a match stream's messages alone: each ``move`` item
    once, in order, and each ``reveal`` replacing by ``seq`` the items it shows again."""
    items: dict[int, dict[str, Any]] = {}
    for message in messages:
        if message["type"] == "move":
            item = message["item"]
            assert item["seq"] not in items, f"move {item['seq']} sent twice"
            items[item["seq"]] = item
        elif message["type"] == "reveal":
            for item in message["items"]:
                assert item["seq"] in items, f"a reveal of move {item['seq']} never sent"
                items[item["seq"]] = item
    return [items[seq] for seq in sorted(items)]


class Stream:
    """A connected WebSocket and what it has received."""

    # Every stream opened, so a fixture can close the ones a test left open.
    opened: list[Stream] = []

    def __init__(self, url: str, token: str | None = None) -> None:
        Stream.opened.append(self)
        headers = {"Authorization": f"Bearer {token}"} if token else None
        # max_queue=None: a stream the test reads only later must not stop reading the socket.
        self.ws: ClientConnection = connect(
            url, additional_headers=headers, open_timeout=10, max_queue=None
        )
        self.received: list[dict[str, Any]] = []

    def next(self, timeout: float = 10.0) -> dict[str, Any]:
        message = json.loads(self.ws.recv(timeout=timeout))
        self.received.append(message)
        return message

    def until_view(self, version: int, timeout: float = 15.0) -> list[dict[str, Any]]:
        """Messages up to and including the first view at ``version`` or later."""
        got = []
        deadline = time.monotonic() + timeout
        while True:
            message = self.next(timeout=max(0.01, deadline - time.monotonic()))
            got.append(message)
            if message["type"] == "view" and message["version"] >= version:
                return got

    def close_code(self, timeout: float = 10.0) -> int | None:
        """Read until the server closes; the close code."""
        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline:
                self.next(timeout=max(0.01, deadline - time.monotonic()))
        except ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd else None
        except TimeoutError:
            return None
        return None

    def close(self) -> None:
        self.ws.close()
