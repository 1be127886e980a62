"""FCM at its HTTP boundary: a local server plays both Google's OAuth token endpoint (the
service-account key's ``token_uri``) and the FCM v1 ``messages:send`` endpoint."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from live.push.models import Device, Notification
from live.push.tasks import sweep_outbox
from tests.push.conftest import Deliveries
from tests.push.servers import Received, Script, http_server
from tests.support.players import Player, create_match

THREE_BOTS = {"1": "easy", "2": "easy", "3": "easy"}
PROJECT = "baloot-test"
# google-auth signs its assertion for Google's token endpoint and posts it to token_uri.
GOOGLE_TOKEN_AUD = "https://oauth2.googleapis.com/token"


@pytest.fixture
def fcm(settings: Any, tmp_path: Path) -> Iterator[tuple[Script, rsa.RSAPrivateKey]]:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    script = Script(default=(200, {"name": f"projects/{PROJECT}/messages/1"}))
    tokens: list[str] = []

    def oauth(request: Received) -> tuple[int, Any] | None:
        if request.path != "/token":
            return None
        form = parse_qs(request.body.decode())
        claims = jwt.decode(
            form["assertion"][0], key.public_key(), algorithms=["RS256"], audience=GOOGLE_TOKEN_AUD
        )
        assert "firebase.messaging" in claims["scope"]
        tokens.append(f"access-{len(tokens) + 1}")
        return 200, {"access_token": tokens[-1], "expires_in": 3600, "token_type": "Bearer"}

    script.route = oauth
    with http_server(script) as base:
        token_uri = f"{base}/token"
        account = {
            "type": "service_account",
            "project_id": PROJECT,
            "private_key_id": "key-1",
            "private_key": key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            ).decode(),
            "client_email": "push@baloot-test.iam.gserviceaccount.com",
            "client_id": "1",
            "token_uri": token_uri,
        }
        path = tmp_path / "service-account.json"
        path.write_text(json.dumps(account))
        settings.FCM_SERVICE_ACCOUNT_FILE = str(path)
        settings.FCM_PROJECT_ID = PROJECT
        settings.FCM_BASE_URL = base
        settings.PUSH_BACKENDS = {"fcm": "fcm", "apns": "log", "webpush": "log"}
        yield script, key


def started_for(player: Player, deliveries: Deliveries, token: str) -> int:
    response = player.client.post(
        "/api/v1/me/devices", {"platform": "fcm", "token": token}, format="json"
    )
    assert response.status_code == 201
    player.client.patch("/api/v1/me/notifications", {"your_turn": False}, format="json")
    match_id = int(create_match(player, bots=THREE_BOTS, turn_seconds=60)["id"])
    sweep_outbox()
    return match_id


def test_a_message_goes_to_fcm_v1_with_a_bearer_and_the_collapse_key(
    make_player: Callable[..., Player], fcm: tuple[Script, Any], deliveries: Deliveries
) -> None:
    script, _key = fcm
    amal = make_player()
    match_id = started_for(amal, deliveries, "fcm-token-amal")
    assert deliveries.run() == ["sent"]
    (request,) = script.received
    assert request.path == f"/v1/projects/{PROJECT}/messages:send"
    assert request.headers["authorization"] == "Bearer access-1"
    message = json.loads(request.body)["message"]
    assert message["token"] == "fcm-token-amal"
    assert message["android"]["collapse_key"] == f"match-{match_id}"
    assert message["apns"]["headers"]["apns-collapse-id"] == f"match-{match_id}"
    assert message["notification"] == {
        "title": "Match started",
        "body": f"Match {match_id} has started.",
    }
    assert message["data"]["event"] == "match_started"
    assert message["data"]["match_id"] == str(match_id)
    assert all(isinstance(v, str) for v in message["data"].values())


@pytest.mark.parametrize(
    "answer",
    [
        (
            404,
            {
                "error": {
                    "code": 404,
                    "status": "NOT_FOUND",
                    "details": [
                        {
                            "@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError",
                            "errorCode": "UNREGISTERED",
                        }
                    ],
                }
            },
        ),
        (
            400,
            {
                "error": {
                    "code": 400,
                    "status": "INVALID_ARGUMENT",
                    "details": [
                        {
                            "@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError",
                            "errorCode": "UNREGISTERED",
                        }
                    ],
                }
            },
        ),
    ],
)
def test_an_unregistered_token_is_deleted(
    make_player: Callable[..., Player],
    fcm: tuple[Script, Any],
    deliveries: Deliveries,
    answer: tuple[int, Any],
) -> None:
    script, _key = fcm
    script.default = answer
    amal = make_player()
    started_for(amal, deliveries, "fcm-token-gone")
    assert deliveries.run() == ["skipped"]
    assert Device.objects.count() == 0


def test_a_5xx_is_retried_and_a_bad_request_fails_for_good(
    make_player: Callable[..., Player],
    fcm: tuple[Script, Any],
    deliveries: Deliveries,
    clock: Any,
) -> None:
    script, _key = fcm
    script.answers = [
        (503, {"error": {"code": 503, "status": "UNAVAILABLE"}}),
        (400, {"error": {"code": 400, "status": "INVALID_ARGUMENT"}}),
    ]
    amal = make_player()
    started_for(amal, deliveries, "fcm-token-flaky")
    assert deliveries.run() == ["pending"]
    clock.advance(deliveries.countdown())
    assert deliveries.run() == ["failed"]
    row = Notification.objects.get()
    assert row.attempts == 2 and Device.objects.count() == 1  # kept: the token is not gone
