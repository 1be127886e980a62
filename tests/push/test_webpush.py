"""Web Push for real: a local server plays the push service, receives the encrypted request,
and the test decrypts it with the subscription's private key and auth secret (RFC 8291,
aes128gcm) and checks the payload, the collapse Topic and the VAPID signature (RFC 8292)."""

from __future__ import annotations

import base64
import json
import os
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import urlsplit

import http_ece
import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from live.push.models import Device, Notification
from live.push.tasks import sweep_outbox
from tests.push.conftest import Deliveries
from tests.push.servers import Script, fake_dns, http_server
from tests.support.players import Player, create_match

THREE_BOTS = {"1": "easy", "2": "easy", "3": "easy"}


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def raw_public(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )


@pytest.fixture
def vapid(settings: Any) -> ec.EllipticCurvePrivateKey:
    key = ec.generate_private_key(ec.SECP256R1())
    der = key.private_bytes(
        serialization.Encoding.DER,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    settings.WEBPUSH_VAPID_PRIVATE_KEY = b64(der)
    settings.WEBPUSH_VAPID_SUBJECT = "mailto:ops@baloot.test"
    settings.WEBPUSH_ALLOW_HTTP = True
    settings.PUSH_BACKENDS = {"fcm": "log", "apns": "log", "webpush": "webpush"}
    return key


# The local push service answers on loopback under a DNS name, as a real one would: the
# endpoints pass the same checks as in production, and the sender's guard resolves the name and
# lets the address through only because the tests list loopback in OUTBOUND_ALLOWED_NETWORKS.
PUSH_HOST = "push.baloot.test"


@pytest.fixture
def push_service(settings: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Script, str]]:
    script = Script()
    with http_server(script) as base:
        port = urlsplit(base).port
        assert port is not None
        fake_dns(monkeypatch, {PUSH_HOST: "127.0.0.1"})
        settings.OUTBOUND_ALLOWED_NETWORKS = ["127.0.0.1/32"]
        settings.WEBPUSH_ALLOWED_PORTS = [port]
        yield script, f"http://{PUSH_HOST}:{port}"


def subscribe(
    player: Player, endpoint: str, **headers: Any
) -> tuple[ec.EllipticCurvePrivateKey, bytes]:
    """A browser's subscription: its own key pair and auth secret, registered over the API."""
    key = ec.generate_private_key(ec.SECP256R1())
    auth = os.urandom(16)
    body = {
        "platform": "webpush",
        "subscription": {
            "endpoint": endpoint,
            "keys": {"p256dh": b64(raw_public(key)), "auth": b64(auth)},
            "expirationTime": None,
        },
    }
    response = player.client.post("/api/v1/me/devices", body, format="json", **headers)
    assert response.status_code == 201, response.content
    return key, auth


def deliver_all(deliveries: Deliveries) -> list[str]:
    sweep_outbox()
    return deliveries.run()


def test_a_notification_arrives_encrypted_signed_and_collapsible(
    make_player: Callable[..., Player],
    vapid: ec.EllipticCurvePrivateKey,
    push_service: tuple[Script, str],
    deliveries: Deliveries,
) -> None:
    script, base = push_service
    amal = make_player()
    key, auth = subscribe(amal, f"{base}/push/amal-1", HTTP_ACCEPT_LANGUAGE="ar")
    amal.client.patch("/api/v1/me/notifications", {"your_turn": False}, format="json")
    match_id = create_match(amal, bots=THREE_BOTS, turn_seconds=60)["id"]
    assert deliver_all(deliveries) == ["sent"]

    (request,) = script.received
    assert request.path == "/push/amal-1"
    assert request.headers["content-encoding"] == "aes128gcm"
    assert request.headers["topic"] == f"match-{match_id}"
    assert int(request.headers["ttl"]) > 0
    payload = json.loads(
        http_ece.decrypt(request.body, private_key=key, auth_secret=auth, version="aes128gcm")
    )
    assert payload == {
        "event": "match_started",
        "match_id": match_id,
        "version": Notification.objects.get().version,
        "title": "بدأت المباراة",
        "body": f"بدأت المباراة {match_id}.",
    }

    # VAPID: "vapid t=<JWT signed ES256 by our key>, k=<our public key>".
    scheme, _, params = request.headers["authorization"].partition(" ")
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    assert scheme == "vapid"
    assert unb64(fields["k"]) == raw_public(vapid)
    claims = jwt.decode(fields["t"], vapid.public_key(), algorithms=["ES256"], audience=base)
    assert claims["sub"] == "mailto:ops@baloot.test"
    # Another key could not have signed it.
    with pytest.raises(jwt.InvalidSignatureError):
        jwt.decode(
            fields["t"],
            ec.generate_private_key(ec.SECP256R1()).public_key(),
            algorithms=["ES256"],
            audience=base,
        )


@pytest.mark.parametrize("status", [404, 410])
def test_a_subscription_the_service_reports_gone_is_deleted(
    make_player: Callable[..., Player],
    vapid: ec.EllipticCurvePrivateKey,
    push_service: tuple[Script, str],
    deliveries: Deliveries,
    status: int,
) -> None:
    script, base = push_service
    script.default = (status, None)
    amal = make_player()
    subscribe(amal, f"{base}/push/gone")
    create_match(amal, bots=THREE_BOTS, turn_seconds=60)
    assert set(deliver_all(deliveries)) == {"skipped"}
    assert Device.objects.count() == 0


def test_a_5xx_is_retried_with_backoff_and_then_delivered(
    make_player: Callable[..., Player],
    vapid: ec.EllipticCurvePrivateKey,
    push_service: tuple[Script, str],
    deliveries: Deliveries,
    clock: Any,
) -> None:
    script, base = push_service
    script.answers = [(503, None), (500, None)]
    amal = make_player()
    key, auth = subscribe(amal, f"{base}/push/flaky")
    amal.client.patch("/api/v1/me/notifications", {"your_turn": False}, format="json")
    create_match(amal, bots=THREE_BOTS, turn_seconds=60)
    assert deliver_all(deliveries) == ["pending"]
    first = deliveries.countdown()
    clock.advance(first)
    assert deliveries.run() == ["pending"]
    second = deliveries.countdown()
    assert second == 2 * first
    clock.advance(second)
    assert deliveries.run() == ["sent"]
    assert len(script.received) == 3
    bodies = [
        http_ece.decrypt(r.body, private_key=key, auth_secret=auth, version="aes128gcm")
        for r in script.received
    ]
    assert len(set(bodies)) == 1  # the same notification each time
    assert Notification.objects.get().attempts == 3


def test_a_subscription_whose_key_is_no_curve_point_is_deleted_unsent(
    make_player: Callable[..., Player],
    vapid: ec.EllipticCurvePrivateKey,
    push_service: tuple[Script, str],
    deliveries: Deliveries,
) -> None:
    script, base = push_service
    amal = make_player()
    subscription = {
        "endpoint": f"{base}/push/bad-key",
        "keys": {"p256dh": "B" + "A" * 86, "auth": "A" * 22},
    }
    body = {"platform": "webpush", "subscription": subscription}
    assert amal.client.post("/api/v1/me/devices", body, format="json").status_code == 201
    create_match(amal, bots=THREE_BOTS, turn_seconds=60)
    assert set(deliver_all(deliveries)) == {"skipped"}
    assert Device.objects.count() == 0 and script.received == []
