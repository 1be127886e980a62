"""Local stand-ins for the push services on 127.0.0.1, recording each request and answering
from a script: a threaded HTTP/1.1 server (Web Push, FCM) and an HTTP/2 TLS one (APNs)."""

from __future__ import annotations

import asyncio
import ipaddress
import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID


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


class FakeDns:
    """``socket.getaddrinfo`` answering ``names`` with the given addresses (and every other
    lookup as the real resolver would); ``looked_up`` records each name asked for."""

    def __init__(self, names: dict[str, str]) -> None:
        self.names = names
        self.looked_up: list[str] = []
        self._real = socket.getaddrinfo

    def __call__(self, host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        self.looked_up.append(host)
        if host in self.names:
            return self._real(self.names[host], port, *args, **kwargs)
        return self._real(host, port, *args, **kwargs)


def fake_dns(monkeypatch: Any, names: dict[str, str]) -> FakeDns:
    resolver = FakeDns(names)
    monkeypatch.setattr(socket, "getaddrinfo", resolver)
    return resolver


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


# --- An HTTP/2 server over TLS (APNs speaks HTTP/2 only) --------------------------------------


def self_signed(tmp: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 and its key, written as PEM files."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.now(UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(minutes=5))
        .not_valid_after(now + timedelta(hours=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = tmp / "cert.pem", tmp / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


@dataclass
class Http2Received(Received):
    http_version: str = ""


@contextmanager
def http2_tls_server(script: Script, tmp: Path) -> Iterator[tuple[str, Path]]:
    """Serve ``script`` over HTTP/2 with TLS (hypercorn, ALPN h2) on a free loopback port;
    yields the base URL and the certificate to trust."""
    from hypercorn.asyncio import serve
    from hypercorn.config import Config

    cert, key = self_signed(tmp)

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        headers = {k.decode().lower(): v.decode() for k, v in scope["headers"]}
        request = Http2Received(
            scope["method"], scope["path"], headers, body, http_version=scope["http_version"]
        )
        status, answer = script.answer(request)
        data = b"" if answer is None else json.dumps(answer).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [(b"content-type", b"application/json"), (b"apns-id", b"1")],
            }
        )
        await send({"type": "http.response.body", "body": data})

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = Config()
    config.bind = [f"127.0.0.1:{port}"]
    config.certfile, config.keyfile = str(cert), str(key)
    config.alpn_protocols = ["h2"]
    config.accesslog = config.errorlog = None
    config.graceful_timeout = 1.0

    loop = asyncio.new_event_loop()
    stop = asyncio.Event()
    started = threading.Event()

    def run() -> None:
        asyncio.set_event_loop(loop)

        async def main() -> None:
            started.set()
            await serve(app, config, shutdown_trigger=stop.wait)  # type: ignore[arg-type]

        loop.run_until_complete(main())

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    started.wait(5)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:  # until it listens
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                break
        time.sleep(0.02)
    try:
        yield f"https://127.0.0.1:{port}", cert
    finally:
        loop.call_soon_threadsafe(stop.set)
        thread.join(10)
        if not loop.is_running():
            loop.close()
