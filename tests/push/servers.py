"""Local stand-ins for the push services: a threaded HTTP/1.1 server on 127.0.0.1 that
records each request and answers from a script."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Received:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Script:
    """The answers, in turn, as (status, JSON body); then ``default``. ``route`` may answer
    a path itself (the OAuth token endpoint)."""

    answers: list[tuple[int, Any]] = field(default_factory=list)
    default: tuple[int, Any] = (201, None)
    route: Callable[[Received], tuple[int, Any] | None] | None = None
    received: list[Received] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def answer(self, request: Received) -> tuple[int, Any]:
        with self.lock:
            if self.route is not None:
                routed = self.route(request)
                if routed is not None:
                    return routed
            self.received.append(request)
            return self.answers.pop(0) if self.answers else self.default


@contextmanager
def http_server(script: Script) -> Iterator[str]:
    """Serve ``script`` on a free loopback port; yields the base URL."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            request = Received(
                "POST",
                self.path,
                {k.lower(): v for k, v in self.headers.items()},
                self.rfile.read(length),
            )
            status, body = script.answer(request)
            data = b"" if body is None else json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
