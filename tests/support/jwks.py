"""Stand-ins for Apple's and Google's sign-in: RSA keys of the test's own, a key server on
127.0.0.1 publishing them as JWKS, and ID tokens signed with them (accounts/providers.py)."""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import jwt
from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.algorithms import RSAAlgorithm

APPLE_CLIENT = "com.example.baloot"
GOOGLE_CLIENT = "1234-android.apps.googleusercontent.com"
ISSUERS = {"apple": "https://appleid.apple.com", "google": "https://accounts.google.com"}
AUDIENCES = {"apple": APPLE_CLIENT, "google": GOOGLE_CLIENT}


@dataclass
class SigningKey:
    kid: str
    private: rsa.RSAPrivateKey = field(
        default_factory=lambda: rsa.generate_private_key(public_exponent=65537, key_size=2048)
    )

    def jwk(self) -> dict[str, Any]:
        public = RSAAlgorithm.to_jwk(self.private.public_key(), as_dict=True)
        return {**public, "kid": self.kid, "alg": "RS256", "use": "sig"}


@dataclass
class KeyServer:
    """Serves each provider's JWKS at ``/<provider>``; ``published`` says which keys, ``status``
    what to answer (200, or a failure), ``delay`` seconds to wait first; ``requests`` counts
    the fetches per path."""

    published: dict[str, list[SigningKey]]
    status: int = 200
    delay: float = 0.0
    cache_control: str = "public, max-age=3600"
    requests: dict[str, int] = field(default_factory=dict)
    base: str = ""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def url(self, provider: str) -> str:
        return f"{self.base}/{provider}"

    def fetches(self, provider: str) -> int:
        with self.lock:
            return self.requests.get(f"/{provider}", 0)


@contextmanager
def key_server(server_state: KeyServer) -> Iterator[KeyServer]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            with server_state.lock:
                server_state.requests[self.path] = server_state.requests.get(self.path, 0) + 1
            if server_state.delay:
                time.sleep(server_state.delay)
            keys = server_state.published.get(self.path.strip("/"), [])
            data = json.dumps({"keys": [k.jwk() for k in keys]}).encode()
            self.send_response(server_state.status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Cache-Control", server_state.cache_control)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    class Server(ThreadingHTTPServer):
        daemon_threads = True

        def handle_error(self, request: Any, client_address: Any) -> None:
            pass  # a client that gave up waiting (the slow server's test) is no news

    server = Server(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    server_state.base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        yield server_state
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def apple_nonce_claim(raw: str) -> str:
    """What Apple puts in the token for the raw nonce the app holds."""
    return hashlib.sha256(raw.encode()).hexdigest()


def id_token(
    provider: str,
    key: SigningKey,
    *,
    sub: str = "001234.abcdef",
    nonce: str | None = None,
    lifetime: int = 600,
    headers: dict[str, Any] | None = None,
    **claims: Any,
) -> str:
    """An ID token as ``provider`` would sign it for our app; ``nonce`` is the app's raw
    nonce (hashed for Apple, as Apple does); ``claims`` add or replace claims."""
    now = int(time.time())
    body: dict[str, Any] = {
        "iss": ISSUERS[provider],
        "aud": AUDIENCES[provider],
        "sub": sub,
        "iat": now,
        "exp": now + lifetime,
    }
    if nonce is not None:
        body["nonce"] = apple_nonce_claim(nonce) if provider == "apple" else nonce
    body.update(claims)
    return jwt.encode(
        body, key.private, algorithm="RS256", headers={"kid": key.kid, **(headers or {})}
    )
