"""The push targets and preferences endpoints: the owner's, and every other persona's
refusal, which changes nothing."""

from __future__ import annotations

import base64
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import SanctionKind
from live.push.models import Device, Preferences
from moderation import services as moderation
from tests.support.api import assert_field_errors, assert_problem
from tests.support.players import Player

API = "/api/v1"
KINDS = [
    "your_turn",
    "turn_nearly_spent",
    "match_started",
    "match_finished",
    "seat_to_bot",
    "sanction",
    "invitation",
    "tournament_round_started",
    "tournament_match_ready",
    "tournament_finished",
]


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def subscription(n: int = 1) -> dict[str, Any]:
    return {
        "endpoint": f"https://push.example.net/send/{n}",
        "keys": {"p256dh": b64(b"\x04" + bytes([n]) * 64), "auth": b64(bytes([n]) * 16)},
        "expirationTime": None,
    }


def register(player: Player, body: dict[str, Any], **headers: Any) -> Any:
    return player.client.post(f"{API}/me/devices", body, format="json", **headers)


def devices(player: Player) -> list[dict[str, Any]]:
    response = player.client.get(f"{API}/me/devices")
    assert response.status_code == 200, response.content
    assert response.json()["next"] is None
    return list(response.json()["results"])


def table_state() -> list[tuple[Any, ...]]:
    return list(Device.objects.order_by("pk").values_list()) + list(
        Preferences.objects.order_by("pk").values_list()
    )


def test_the_owner_registers_lists_and_removes_each_kind_of_target(
    make_player: Callable[..., Player],
) -> None:
    amal = make_player()
    fcm = register(amal, {"platform": "fcm", "token": "fcm:token-123456"})
    assert fcm.status_code == 201, fcm.content
    apns = register(amal, {"platform": "apns", "token": "ab" * 32}, HTTP_ACCEPT_LANGUAGE="ar-SA")
    web = register(
        amal,
        {"platform": "webpush", "subscription": subscription()},
        HTTP_ACCEPT_LANGUAGE="fr, ar;q=0.5",
    )
    assert (apns.status_code, web.status_code) == (201, 201)
    listed = devices(amal)
    assert [(d["platform"], d["language"]) for d in listed] == [
        ("fcm", "en"),
        ("apns", "ar"),
        ("webpush", "ar"),
    ]
    assert listed[0]["token_suffix"] == "n-123456" and "token" not in listed[0]
    assert listed[2]["endpoint"] == "https://push.example.net/send/1"
    assert (web.json()["id"], Device.objects.get(pk=web.json()["id"]).auth) == (
        listed[2]["id"],
        subscription()["keys"]["auth"],
    )

    # The same target again: updated in place (200), not doubled.
    again = register(amal, {"platform": "fcm", "token": "fcm:token-123456"})
    assert again.status_code == 200 and again.json()["id"] == fcm.json()["id"]
    assert len(devices(amal)) == 3

    assert amal.client.delete(f"{API}/me/devices/{fcm.json()['id']}").status_code == 204
    assert [d["platform"] for d in devices(amal)] == ["apns", "webpush"]
    assert_problem(amal.client.delete(f"{API}/me/devices/{fcm.json()['id']}"), 404, "not_found")


def test_a_target_registered_by_another_account_moves_to_the_new_one(
    make_player: Callable[..., Player],
) -> None:
    first, second = make_player(), make_player()
    assert register(first, {"platform": "fcm", "token": "shared-device-token"}).status_code == 201
    assert register(second, {"platform": "fcm", "token": "shared-device-token"}).status_code == 200
    assert devices(first) == [] and len(devices(second)) == 1


def test_another_users_device_is_not_found_and_stays(make_player: Callable[..., Player]) -> None:
    owner, other = make_player(), make_player()
    device_id = register(owner, {"platform": "fcm", "token": "owner-token-1"}).json()["id"]
    before = table_state()
    assert devices(other) == []
    assert_problem(other.client.delete(f"{API}/me/devices/{device_id}"), 404, "not_found")
    assert table_state() == before


@pytest.mark.parametrize(
    ("body", "errors"),
    [
        ({"platform": "fcm"}, {"token": "invalid"}),
        ({"platform": "fcm", "token": 12345678}, {"token": "invalid"}),
        ({"platform": "apns", "token": "not-hex"}, {"token": "invalid"}),
        ({"platform": "sms", "token": "abcdefgh"}, {"platform": "invalid_choice"}),
        ({"platform": "fcm", "token": "abcdefgh", "colour": "red"}, {"colour": "unknown_field"}),
        ({"platform": "webpush", "token": "abcdefgh"}, {"token": "x", "subscription": "x"}),
        ({"platform": "fcm", "token": "abcdefgh", "subscription": {}}, {"subscription": "x"}),
        ({"token": "abcdefgh"}, {"platform": "invalid_choice"}),
        (
            {"platform": "webpush", "subscription": {**subscription(), "endpoint": "http://x/"}},
            {"subscription": "invalid"},
        ),
        (
            {"platform": "webpush", "subscription": {**subscription(), "extra": 1}},
            {"subscription": "invalid"},
        ),
        (
            {
                "platform": "webpush",
                "subscription": {**subscription(), "keys": {"p256dh": "AAAA", "auth": "AAAA"}},
            },
            {"subscription": "invalid"},
        ),
    ],
)
def test_a_bad_device_body_is_refused_and_changes_nothing(
    make_player: Callable[..., Player], body: dict[str, Any], errors: dict[str, str]
) -> None:
    amal = make_player()
    before = table_state()
    response = register(amal, body)
    assert_problem(response, 400, "invalid")
    got = {item["field"].split(".")[0] for item in response.json()["errors"]}
    assert got == set(errors), response.json()
    assert table_state() == before


def test_a_device_past_the_limit_replaces_the_oldest(
    make_player: Callable[..., Player], settings: Any
) -> None:
    settings.PUSH_MAX_DEVICES_PER_USER = 2
    amal, other = make_player(), make_player()
    kept = register(other, {"platform": "fcm", "token": "token-of-other"}).json()["id"]
    ids = [
        register(amal, {"platform": "fcm", "token": f"token-number-{n}"}).json()["id"]
        for n in range(3)
    ]
    assert [d["id"] for d in devices(amal)] == ids[1:]
    assert [d["id"] for d in devices(other)] == [kept]


def test_preferences_default_to_everything_and_mute_per_kind(
    make_player: Callable[..., Player],
) -> None:
    amal, other = make_player(), make_player()
    got = amal.client.get(f"{API}/me/notifications").json()
    assert got == dict.fromkeys(KINDS, True)
    response = amal.client.patch(
        f"{API}/me/notifications", {"your_turn": False, "sanction": False}, format="json"
    )
    assert response.status_code == 200
    assert response.json() == {**dict.fromkeys(KINDS, True), "your_turn": False, "sanction": False}
    response = amal.client.patch(f"{API}/me/notifications", {"your_turn": True}, format="json")
    assert response.json() == {**dict.fromkeys(KINDS, True), "sanction": False}
    # Another user's stay their own.
    assert other.client.get(f"{API}/me/notifications").json() == dict.fromkeys(KINDS, True)


@pytest.mark.parametrize(
    ("body", "errors"),
    [
        ({"your_turn": "no"}, {"your_turn": "invalid"}),
        ({"your_turn": 0}, {"your_turn": "invalid"}),
        ({"chat": False}, {"chat": "unknown_field"}),
    ],
)
def test_bad_preferences_are_refused_and_change_nothing(
    make_player: Callable[..., Player], body: dict[str, Any], errors: dict[str, str]
) -> None:
    amal = make_player()
    amal.client.patch(f"{API}/me/notifications", {"match_started": False}, format="json")
    before = table_state()
    assert_field_errors(amal.client.patch(f"{API}/me/notifications", body, format="json"), errors)
    assert table_state() == before


def test_anonymous_revoked_and_sanctioned_callers_are_refused_and_change_nothing(
    make_player: Callable[..., Player], anon: APIClient
) -> None:
    revoked, banned, moderator = make_player(), make_player(), make_player()
    device_id = register(banned, {"platform": "fcm", "token": "banned-token-1"}).json()["id"]
    assert revoked.client.post(f"{API}/auth/logout").status_code in (200, 204)
    moderation.sanction_apply(
        moderator=moderator.user,
        user_id=banned.id,
        kind=SanctionKind.SUSPEND,
        reason="abuse",
        ends_at=timezone.now() + timedelta(days=1),
    )
    before = table_state()
    calls: list[tuple[str, str, dict[str, Any] | None]] = [
        ("get", f"{API}/me/devices", None),
        ("post", f"{API}/me/devices", {"platform": "fcm", "token": "new-token-123"}),
        ("delete", f"{API}/me/devices/{device_id}", None),
        ("get", f"{API}/me/notifications", None),
        ("patch", f"{API}/me/notifications", {"your_turn": False}),
    ]
    for client, status, code in [
        (anon, 401, "not_authenticated"),
        (revoked.client, 401, "authentication_failed"),
        (banned.client, 403, "account_suspended"),
    ]:
        for method, url, body in calls:
            response = getattr(client, method)(url, body, format="json")
            assert_problem(response, status, code)
    assert table_state() == before
