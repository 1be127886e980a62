"""APNs at its HTTP boundary: a local HTTP/2 server over TLS (hypercorn, ALPN h2, a
certificate made for the test) receives what the provider sends: HTTP/2, the device path,
the ES256 provider token, the topic and the collapse id; and answers as APNs does."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from live.push.models import Device, Notification
from live.push.tasks import sweep_outbox
from tests.push.conftest import Deliveries
from tests.push.servers import Http2Received, Script, http2_tls_server
from tests.support.players import Player, create_match

THREE_BOTS = {"1": "easy", "2": "easy", "3": "easy"}
TOKEN = "ab12" * 16


@pytest.fixture(scope="module")
def apns_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Script, str, Path]]:
    # One server for the module: starting hypercorn costs more than the tests themselves.
    script = Script(default=(200, None))
    with http2_tls_server(script, tmp_path_factory.mktemp("apns")) as (base, cert):
        yield script, base, cert


@pytest.fixture
def apns(
    apns_server: tuple[Script, str, Path], settings: Any, tmp_path: Path
) -> tuple[Script, ec.EllipticCurvePrivateKey]:
    script, base, cert = apns_server
    script.received.clear()
    script.answers.clear()
    script.default = (200, None)
    key = ec.generate_private_key(ec.SECP256R1())
    p8 = tmp_path / "AuthKey_KEY123.p8"
    p8.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    settings.APNS_KEY_FILE = str(p8)
    settings.APNS_KEY_ID = "KEY123"
    settings.APNS_TEAM_ID = "TEAM123"
    settings.APNS_TOPIC = "com.example.baloot"
    settings.APNS_BASE_URL = base
    settings.APNS_VERIFY = str(cert)
    settings.PUSH_BACKENDS = {"fcm": "log", "apns": "apns", "webpush": "log"}
    return script, key


def started_for(player: Player) -> int:
    response = player.client.post(
        "/api/v1/me/devices", {"platform": "apns", "token": TOKEN}, format="json"
    )
    assert response.status_code == 201
    player.client.patch("/api/v1/me/notifications", {"your_turn": False}, format="json")
    match_id = int(create_match(player, bots=THREE_BOTS, turn_seconds=60)["id"])
    sweep_outbox()
    return match_id


def test_an_alert_goes_over_http2_with_a_provider_token_and_the_collapse_id(
    make_player: Callable[..., Player], apns: tuple[Script, Any], deliveries: Deliveries
) -> None:
    script, key = apns
    amal = make_player()
    match_id = started_for(amal)
    assert deliveries.run() == ["sent"]
    (request,) = script.received
    assert isinstance(request, Http2Received) and request.http_version == "2"
    assert request.path == f"/3/device/{TOKEN}"
    headers = request.headers
    assert headers["apns-topic"] == "com.example.baloot"
    assert headers["apns-push-type"] == "alert"
    assert headers["apns-collapse-id"] == f"match-{match_id}"
    scheme, _, token = headers["authorization"].partition(" ")
    assert scheme == "bearer"
    assert jwt.get_unverified_header(token) == {"alg": "ES256", "kid": "KEY123", "typ": "JWT"}
    assert jwt.decode(token, key.public_key(), algorithms=["ES256"])["iss"] == "TEAM123"
    body = json.loads(request.body)
    assert body["aps"]["alert"] == {
        "title": "Match started",
        "body": f"Match {match_id} has started.",
    }
    assert (body["event"], body["match_id"]) == ("match_started", match_id)


@pytest.mark.parametrize(
    "answer",
    [(410, {"reason": "Unregistered"}), (400, {"reason": "BadDeviceToken"})],
)
def test_a_token_apns_reports_gone_is_deleted(
    make_player: Callable[..., Player],
    apns: tuple[Script, Any],
    deliveries: Deliveries,
    answer: tuple[int, Any],
) -> None:
    script, _key = apns
    script.default = answer
    started_for(make_player())
    assert deliveries.run() == ["skipped"]
    assert Device.objects.count() == 0


def test_a_5xx_is_retried_with_backoff(
    make_player: Callable[..., Player],
    apns: tuple[Script, Any],
    deliveries: Deliveries,
    clock: Any,
) -> None:
    script, _key = apns
    script.answers = [(503, {"reason": "ServiceUnavailable"})]
    started_for(make_player())
    assert deliveries.run() == ["pending"]
    clock.advance(deliveries.countdown())
    assert deliveries.run() == ["sent"]
    assert Notification.objects.get().attempts == 2 and len(script.received) == 2
