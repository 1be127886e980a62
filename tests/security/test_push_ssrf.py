"""SSRF through Web Push (issue 23, part 1): a subscription endpoint is a URL a client gives
us and the push worker POSTs to, so it must reach only push services on the public internet.

The attack: register ``https://127.0.0.1:8199/...`` (or ``localhost``, ``[::1]``,
``2130706433``, ``169.254.169.254``, the API's own port) as a Web Push endpoint; the endpoint
only had to start with ``https://``, and the worker opened TLS connections to loopback.

Now registration refuses every address and local name (``live.push.endpoints``), and the sender
checks the stored endpoint again and sends through ``core.outbound``'s guard: the host is
resolved once, every address must be public, the connection goes to the address checked (a
second DNS answer changes nothing) and no redirect is followed. The sender is tested for real:
``WebPushProvider.send`` against a TLS listener on loopback that counts the connections it
accepts, with devices written straight into the table (as if registered before the fix).
"""

from __future__ import annotations

import base64
import ipaddress
import logging
import os
import re
import socket
import ssl
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import requests
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from urllib3.exceptions import NewConnectionError

from core import outbound
from core.outbound import OutboundRefused, address_is_public, guarded_session
from live.push import endpoints
from live.push.models import Device
from live.push.providers import Result
from live.push.providers.webpush import WebPushProvider
from tests.push.servers import fake_dns
from tests.support.api import assert_field_errors
from tests.support.players import Player

DEVICES = "/api/v1/me/devices"
PAYLOAD = {"event": "your_turn", "match_id": 1, "version": 1, "title": "t", "body": "b"}


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def browser_keys() -> dict[str, str]:
    """A subscription's keys as a browser makes them: a P-256 public key and an auth secret."""
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return {"p256dh": b64(public), "auth": b64(os.urandom(16))}


def register(player: Player, endpoint: str) -> Any:
    body = {"platform": "webpush", "subscription": {"endpoint": endpoint, "keys": browser_keys()}}
    return player.client.post(DEVICES, body, format="json")


# --- Registration -----------------------------------------------------------------------------

REFUSED = [
    "https://127.0.0.1:8199/push/x",  # loopback, and a port of our own
    "https://127.0.0.1/push/x",
    "https://localhost/push/x",
    "https://localhost:8000/push/x",
    "https://push.localhost/x",
    "https://metadata.google.internal/computeMetadata/v1/",
    "https://printer.local/x",
    "https://intranet/x",  # no dot: a name the resolver's search list completes
    "https://[::1]/push/x",
    "https://[::1]:8000/push/x",
    "https://[::ffff:127.0.0.1]/push/x",  # IPv4-mapped IPv6
    "https://[::ffff:7f00:1]/push/x",
    "https://[0:0:0:0:0:ffff:127.0.0.1]/push/x",
    "https://[fe80::1%25eth0]/push/x",
    "https://2130706433/push/x",  # 127.0.0.1 in decimal
    "https://0x7f000001/push/x",  # in hex
    "https://0x7f.1/push/x",
    "https://0177.0.0.1/push/x",  # in octal
    "https://127.1/push/x",  # short form
    "https://169.254.169.254/latest/meta-data/",  # a cloud's metadata service
    "https://100.64.0.1/x",
    "https://10.0.0.1/x",
    "https://8.8.8.8/x",  # public, but an address all the same
    "https://user@push.example.net/x",
    "https://user:secret@push.example.net/x",
    "https://push.example.net@127.0.0.1/x",
    "https://push.example.net\\@127.0.0.1/x",
    "http://push.example.net/x",
    "ftp://push.example.net/x",
    "//push.example.net/x",
    "https://push.example.net:8443/x",  # not the default port
    "https://push.example.net:8000/x",  # the API's own port
    "https://push.example.net:0443/x",
    "https://push.example.net:/x",
    "https://push.example.net/x\n",  # a trailing newline
    "https://push.example.net/x\r\n",
    " https://push.example.net/x",
    "https://push.example.net/x y",
    "https://push.example.net./x",
    "https://PUSH.example.net/x",  # a browser's URL has its host in lower case
    "https://push.example.net/x\x00",
    "https://push.exämple.net/x",
    "https://-push.example.net/x",
    "https://" + "a" * 64 + ".example.net/x",
]


@pytest.mark.parametrize("endpoint", REFUSED)
def test_registration_refuses_an_endpoint_off_the_public_internet(
    make_player: Callable[..., Player], endpoint: str
) -> None:
    response = register(make_player(), endpoint)
    assert_field_errors(response, {"subscription.endpoint": "invalid"})
    assert Device.objects.count() == 0


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://push.example.net/send/abc123",
        "https://push.example.net:443/send/abc123",
        "https://fcm.googleapis.com/fcm/send/dGVzdA:APA91b-x_y?z=1#f",
        "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABk",
        "https://web.push.apple.com/QGZ-1d1ZTEz",
        "https://wns2-par02p.notify.windows.com/w/?token=BQYAAAB%2b",
        "https://xn--mnchen-3ya.example/x",  # an IDN, as a URL serializer writes it
    ],
)
def test_registration_accepts_a_push_service_endpoint(
    make_player: Callable[..., Player], endpoint: str
) -> None:
    response = register(make_player(), endpoint)
    assert response.status_code == 201, response.content
    assert Device.objects.get().address == endpoint


def test_each_refusal_says_why(make_player: Callable[..., Player], settings: Any) -> None:
    player = make_player()
    why = {
        "https://127.0.0.1/x": endpoints.NOT_A_PUBLIC_NAME,
        "https://[::1]/x": endpoints.NOT_A_PUBLIC_NAME,
        "https://u@push.example.net/x": endpoints.NOT_A_PUBLIC_NAME,
        "https://push.localhost/x": endpoints.NOT_A_PUBLIC_NAME,
        "https://push.example.net:8443/x": endpoints.PORT_NOT_ALLOWED,
        "http://push.example.net/x": endpoints.NOT_HTTPS,
        "https://push.example.net/x\n": endpoints.NOT_HTTPS,
    }
    for endpoint, reason in why.items():
        (error,) = register(player, endpoint).json()["errors"]
        assert error == {
            "field": "subscription.endpoint",
            "code": "invalid",
            "detail": str(reason),
        }, endpoint


def test_allowed_ports_and_hosts_are_settings(
    make_player: Callable[..., Player], settings: Any
) -> None:
    player = make_player()
    settings.WEBPUSH_ALLOWED_PORTS = [443, 8443]
    assert register(player, "https://push.example.net:8443/a").status_code == 201
    settings.WEBPUSH_ALLOWED_HOSTS = [".push.apple.com", "fcm.googleapis.com"]
    assert register(player, "https://web.push.apple.com/b").status_code == 201
    assert register(player, "https://push.apple.com/c").status_code == 201
    assert register(player, "https://fcm.googleapis.com/fcm/send/d").status_code == 201
    for elsewhere in (
        "https://push.example.net/e",
        "https://api.fcm.googleapis.com/f",  # an exact name, not a suffix
        "https://evilpush.apple.com/g",
        "https://web.push.apple.com.evil.example/h",
    ):
        response = register(player, elsewhere)
        assert_field_errors(response, {"subscription.endpoint": "invalid"})
        assert response.json()["errors"][0]["detail"] == str(endpoints.HOST_NOT_ALLOWED)


def test_the_schema_publishes_the_pattern_the_server_checks(settings: Any) -> None:
    from drf_spectacular.generators import SchemaGenerator

    document = SchemaGenerator().get_schema(request=None, public=True)
    field_schema = document["components"]["schemas"]["SubscriptionRequest"]["properties"]
    assert field_schema["endpoint"]["pattern"] == endpoints.endpoint_pattern()
    assert field_schema["endpoint"]["maxLength"] == endpoints.MAX_LENGTH


def test_the_escape_hatches_are_off_unless_the_operator_sets_them() -> None:
    from django.conf import settings

    assert settings.OUTBOUND_ALLOWED_NETWORKS == []
    assert settings.WEBPUSH_ALLOW_HTTP is False
    assert settings.WEBPUSH_ALLOWED_PORTS == [443]
    assert settings.WEBPUSH_ALLOWED_HOSTS == []


# --- Which addresses are public ---------------------------------------------------------------

NOT_PUBLIC = [
    "0.0.0.0",
    "0.1.2.3",
    "10.0.0.1",
    "10.255.255.255",
    "100.64.0.1",  # shared address space (CGNAT)
    "100.127.255.254",
    "127.0.0.1",
    "127.255.255.254",
    "169.254.169.254",
    "172.16.0.1",
    "172.31.255.255",
    "192.0.0.8",
    "192.0.2.1",
    "192.88.99.1",
    "192.168.1.1",
    "198.18.0.1",
    "198.19.255.255",
    "198.51.100.7",
    "203.0.113.9",
    "224.0.0.1",  # multicast
    "239.255.255.250",
    "240.0.0.1",  # reserved
    "255.255.255.255",
    "::",  # unspecified
    "::1",
    "::ffff:127.0.0.1",  # IPv4-mapped
    "::ffff:10.0.0.1",
    "::ffff:169.254.169.254",
    "::ffff:8.8.8.8",  # mapped at all: no push service publishes one
    "::127.0.0.1",  # IPv4-compatible (deprecated)
    "::8.8.8.8",
    "64:ff9b::7f00:1",  # NAT64 of 127.0.0.1
    "64:ff9b::a9fe:a9fe",  # NAT64 of 169.254.169.254
    "64:ff9b:1::808:808",  # local-use NAT64
    "2002:7f00:1::1",  # 6to4 of 127.0.0.1
    "2002:c0a8:101::1",  # 6to4 of 192.168.1.1
    "2001::1",  # Teredo
    "2001:2::1",  # benchmarking
    "2001:db8::1",  # documentation
    "3fff::1",
    "100::1",  # discard-only
    "fc00::1",  # unique local
    "fd12:3456::1",
    "fe80::1",  # link-local
    "fec0::1",  # site-local
    "ff02::1",  # multicast
    "ff0e::1",
    "5f00::1",  # SRv6 SIDs, outside global unicast
]
PUBLIC = [
    "8.8.8.8",
    "1.1.1.1",
    "93.184.216.34",
    "100.63.255.255",  # just below CGNAT
    "100.128.0.0",  # just above
    "172.15.255.255",
    "172.32.0.0",
    "2606:4700::1",
    "2a00:1450:4001:82a::200a",
    "64:ff9b::808:808",  # NAT64 of 8.8.8.8 (DNS64 networks)
    "2002:808:808::1",  # 6to4 of 8.8.8.8
]


@pytest.mark.parametrize("text", NOT_PUBLIC)
def test_not_public(text: str) -> None:
    assert not address_is_public(ipaddress.ip_address(text))
    assert not outbound.address_allowed(ipaddress.ip_address(text))


@pytest.mark.parametrize("text", PUBLIC)
def test_public(text: str) -> None:
    assert address_is_public(ipaddress.ip_address(text))


def test_the_operator_may_let_a_network_through() -> None:
    extra = outbound.parse_networks(["127.0.0.1/32", "fd00::/8"])
    assert outbound.address_allowed(ipaddress.ip_address("127.0.0.1"), extra)
    assert outbound.address_allowed(ipaddress.ip_address("fd00::5"), extra)
    assert not outbound.address_allowed(ipaddress.ip_address("127.0.0.2"), extra)
    assert not outbound.address_allowed(ipaddress.ip_address("::ffff:127.0.0.1"), extra)


# --- A TLS listener on loopback that counts connections -------------------------------------


def certificate(tmp: Path, name: str) -> Path:
    """A self-signed certificate (its own CA) for DNS name ``name``, key included, as PEM."""
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.now(UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(minutes=5))
        .not_valid_after(now + timedelta(hours=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    path = tmp / f"{name}.pem"
    path.write_bytes(
        cert.public_bytes(serialization.Encoding.PEM)
        + key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return path


@dataclass
class Listener:
    port: int
    cert: Path
    connections: int = 0
    peers: list[str] = field(default_factory=list)
    server_names: list[str | None] = field(default_factory=list)
    requests: list[bytes] = field(default_factory=list)


@contextmanager
def tls_listener(tmp: Path, name: str = "push.baloot.test") -> Iterator[Listener]:
    """Answers every request it can read with 201 over TLS, counting accepted connections."""
    cert = certificate(tmp, name)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert)
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    server.settimeout(0.05)
    listener = Listener(port=server.getsockname()[1], cert=cert)

    def sni(sock: Any, server_name: str | None, ctx: Any) -> None:
        listener.server_names.append(server_name)

    context.sni_callback = sni
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, peer = server.accept()
            except TimeoutError:
                continue
            listener.connections += 1
            listener.peers.append(peer[0])
            try:
                conn.settimeout(5)
                with context.wrap_socket(conn, server_side=True) as tls:
                    data = b""
                    while b"\r\n\r\n" not in data:
                        chunk = tls.recv(65536)
                        if not chunk:
                            break
                        data += chunk
                    # Read the body too: closing with unread bytes sends a reset, which can
                    # reach the client before the answer does.
                    head, _, body = data.partition(b"\r\n\r\n")
                    length = re.search(rb"(?i)\r\ncontent-length: *(\d+)", head)
                    while length and len(body) < int(length.group(1)):
                        chunk = tls.recv(65536)
                        if not chunk:
                            break
                        body += chunk
                    listener.requests.append(data)
                    tls.sendall(b"HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n")
            except (OSError, ssl.SSLError):
                conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield listener
    finally:
        stop.set()
        thread.join(5)
        server.close()


@pytest.fixture
def listener(tmp_path: Path) -> Iterator[Listener]:
    with tls_listener(tmp_path) as running:
        yield running


@pytest.fixture
def vapid(settings: Any) -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    der = key.private_bytes(
        serialization.Encoding.DER,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    settings.WEBPUSH_VAPID_PRIVATE_KEY = b64(der)
    settings.WEBPUSH_VAPID_SUBJECT = "mailto:ops@baloot.test"


def stored_device(player: Player, endpoint: str) -> Device:
    """A device written straight to the table, past the serializer (a row from before)."""
    return Device.objects.create(
        user=player.user, platform="webpush", address=endpoint, **browser_keys()
    )


def send(device: Device) -> Result:
    provider = WebPushProvider()
    try:
        return provider.send(device, PAYLOAD, "match-1")
    finally:
        provider.close()


# --- The sender ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spelling",
    [
        "127.0.0.1",
        "[::ffff:127.0.0.1]",
        "2130706433",
        "0x7f.1",
        "localhost",
    ],
)
def test_the_sender_never_connects_to_a_stored_loopback_endpoint(
    make_player: Callable[..., Player],
    vapid: None,
    listener: Listener,
    settings: Any,
    caplog: pytest.LogCaptureFixture,
    spelling: str,
) -> None:
    settings.WEBPUSH_ALLOWED_PORTS = [listener.port]  # only the address is left to refuse
    device = stored_device(make_player(), f"https://{spelling}:{listener.port}/push/x")
    with caplog.at_level(logging.WARNING, logger="live.push.providers.webpush"):
        assert send(device) is Result.GONE
    assert listener.connections == 0
    assert f"web push device {device.pk}" in caplog.text


def test_the_sender_never_connects_to_a_name_that_resolves_to_loopback(
    make_player: Callable[..., Player],
    vapid: None,
    listener: Listener,
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    settings.WEBPUSH_ALLOWED_PORTS = [listener.port]
    dns = fake_dns(monkeypatch, {"push.evil.example": "127.0.0.1"})
    device = stored_device(make_player(), f"https://push.evil.example:{listener.port}/push/x")
    with caplog.at_level(logging.WARNING, logger="live.push.providers.webpush"):
        assert send(device) is Result.GONE
    assert listener.connections == 0
    assert dns.looked_up == ["push.evil.example"]
    assert "refused before connecting" in caplog.text and "127.0.0.1" in caplog.text


def test_the_guard_refuses_every_spelling_of_loopback_at_the_socket(listener: Listener) -> None:
    """The guard itself, under the URL checks: it resolves what the C library would connect
    to, whatever the spelling."""
    session = guarded_session()
    for host in ("127.0.0.1", "[::ffff:127.0.0.1]", "2130706433", "0x7f.1", "0177.0.0.1"):
        with pytest.raises(OutboundRefused):
            session.post(f"https://{host}:{listener.port}/x", data=b"x", timeout=2)
    assert listener.connections == 0


def test_the_guard_refuses_a_name_with_any_private_address(monkeypatch: pytest.MonkeyPatch) -> None:
    answers = [ip("93.184.216.34"), ip("10.0.0.7")]
    monkeypatch.setattr(outbound, "resolve", lambda host, port: answers)
    with pytest.raises(OutboundRefused, match=re.escape("10.0.0.7")):
        guarded_session().post("https://mixed.example.net/x", timeout=2)


def test_the_guard_connects_by_address_and_keeps_the_name_for_tls_and_host(
    listener: Listener, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The path production takes, let through to loopback only by the tests' network setting:
    the certificate is verified for the name, the name goes in SNI and Host."""
    dns = fake_dns(monkeypatch, {"push.baloot.test": "127.0.0.1"})
    session = guarded_session(allowed_networks=["127.0.0.1/32"])
    session.verify = str(listener.cert)
    response = session.post(f"https://push.baloot.test:{listener.port}/push/x", data=b"hello")
    assert response.status_code == 201
    assert listener.connections == 1 and listener.peers == ["127.0.0.1"]
    assert listener.server_names == ["push.baloot.test"]
    assert f"\r\nHost: push.baloot.test:{listener.port}\r\n".encode() in listener.requests[0]
    assert dns.looked_up == ["push.baloot.test"]


def test_the_certificate_is_still_verified_for_the_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with tls_listener(tmp_path, name="other.example.net") as other:
        fake_dns(monkeypatch, {"push.baloot.test": "127.0.0.1"})
        session = guarded_session(allowed_networks=["127.0.0.1/32"])
        session.verify = str(other.cert)
        with pytest.raises(requests.exceptions.SSLError):
            session.post(f"https://push.baloot.test:{other.port}/x", data=b"x", timeout=5)


def ip(text: str) -> outbound.Address:
    return ipaddress.ip_address(text)


class RecordingSocket(socket.socket):
    """A socket whose connect records the address and is refused: nothing leaves the host."""

    connected: list[tuple[Any, ...]] = []

    def connect(self, address: Any) -> None:
        RecordingSocket.connected.append(tuple(address[:2]))
        raise ConnectionRefusedError(111, "refused by the test")


@pytest.fixture
def recording_socket(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    RecordingSocket.connected = []
    monkeypatch.setattr(socket, "socket", RecordingSocket)
    return RecordingSocket.connected


def test_a_rebinding_name_is_connected_to_at_the_address_checked(
    monkeypatch: pytest.MonkeyPatch, recording_socket: list[tuple[Any, ...]]
) -> None:
    """The resolver answers a public address, then loopback: the name is resolved once, and
    the socket goes to the address that was checked."""
    answers = iter(["93.184.216.34", "127.0.0.1", "127.0.0.1"])
    real = socket.getaddrinfo
    looked_up: list[str] = []

    def rebinding(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        looked_up.append(host)
        return real(next(answers), port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", rebinding)
    with pytest.raises(requests.ConnectionError):
        guarded_session().post("https://rebind.example.net/push/x", data=b"x", timeout=2)
    assert recording_socket == [("93.184.216.34", 443)]
    assert looked_up == ["rebind.example.net"]


def test_each_checked_address_is_tried_in_turn_and_no_other(
    monkeypatch: pytest.MonkeyPatch, recording_socket: list[tuple[Any, ...]]
) -> None:
    addresses = [ip("2606:4700::1"), ip("93.184.216.34")]
    monkeypatch.setattr(outbound, "resolve", lambda host, port: addresses)
    with pytest.raises(requests.ConnectionError):
        guarded_session().post("https://two.example.net:8443/x", data=b"x", timeout=2)
    assert recording_socket == [("2606:4700::1", 8443), ("93.184.216.34", 8443)]


def test_a_pinned_connection_never_resolves_a_name(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever path reaches the guard's connections without a checked address fails closed."""
    dns = fake_dns(monkeypatch, {})
    adapter = outbound.GuardedAdapter()
    pool = adapter.poolmanager.connection_from_url("https://x.example/")
    with pytest.raises(NewConnectionError, match="not a checked address"):
        pool._new_conn().connect()
    assert dns.looked_up == []


def test_the_guarded_session_follows_no_redirect_and_uses_no_proxy() -> None:
    session = guarded_session()
    assert session.trust_env is False
    redirect = requests.Response()
    redirect.status_code, redirect.headers["Location"] = 307, "http://127.0.0.1/"
    assert session.get_redirect_target(redirect) is None
    with pytest.raises(OutboundRefused):
        session.post(
            "https://push.example.net/x", proxies={"https": "http://127.0.0.1:3128"}, timeout=2
        )


@contextmanager
def redirecting_server(location: Callable[[], str], status: int) -> Iterator[list[str]]:
    """A plain HTTP server on loopback answering every POST with ``status`` to ``location``."""
    seen: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            seen.append(self.path)
            self.send_response(status)
            self.send_header("Location", location())
            self.send_header("Content-Length", "0")
            self.end_headers()

        do_GET = do_POST

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        seen.append(str(server.server_address[1]))  # the port first
        yield seen
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


@pytest.mark.parametrize("status", [302, 307])
def test_the_sender_follows_no_redirect(
    make_player: Callable[..., Player],
    vapid: None,
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
    status: int,
) -> None:
    """A push service (let through by the tests' network setting) that redirects to another
    local port: the redirect comes back as the answer, and the other port sees nothing."""
    with (
        redirecting_server(lambda: "", 201) as target,
        redirecting_server(lambda: f"http://127.0.0.1:{target[0]}/inside", status) as first,
    ):
        settings.WEBPUSH_ALLOW_HTTP = True
        settings.OUTBOUND_ALLOWED_NETWORKS = ["127.0.0.1/32"]
        settings.WEBPUSH_ALLOWED_PORTS = [int(first[0]), int(target[0])]
        fake_dns(monkeypatch, {"push.baloot.test": "127.0.0.1"})
        device = stored_device(make_player(), f"http://push.baloot.test:{first[0]}/push/x")
        assert send(device) is Result.FAILED  # a 3xx is no delivery, and is not followed
        assert first[1:] == ["/push/x"]
        assert target[1:] == []
