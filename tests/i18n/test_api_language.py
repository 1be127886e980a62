"""The language of an answer through the API: the account's, else Accept-Language, else
English. Titles and details change; ``code``, ``type``, ``status`` and enum values never do."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from rest_framework.test import APIClient

from core import clock
from live.push.models import Notification
from tests.support.players import Player, create_match

ARABIC = re.compile("[\u0600-\u06ff]")
PASS = {"type": "bid", "call": "pass"}


def _problem(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/problem+json")
    body = response.json()
    assert body["code"] == code and body["status"] == status
    assert body["type"].endswith("/" + code)
    return body


def _arabic(body: dict[str, Any]) -> None:
    assert ARABIC.search(body["title"]) and ARABIC.search(body["detail"]), body


def _out_of_turn(view: dict[str, Any], players: list[Player]) -> Player:
    return players[(view["round"]["to_act"] + 1) % 4]


def test_a_refused_move_is_in_arabic_for_an_arabic_header_with_the_same_code(
    table: Callable[..., Any],
) -> None:
    view, players = table()
    waiting = _out_of_turn(view, players)
    url = f"/api/v1/matches/{view['id']}/moves"
    english = _problem(waiting.client.post(url, PASS, format="json"), 422, "not_your_turn")
    response = waiting.client.post(url, PASS, format="json", HTTP_ACCEPT_LANGUAGE="ar")
    arabic = _problem(response, 422, "not_your_turn")
    _arabic(arabic)
    assert response["Content-Language"] == "ar"
    assert english["title"] == "Request refused" and not ARABIC.search(english["detail"])
    assert {k: v for k, v in arabic.items() if k not in ("title", "detail")} == {
        k: v for k, v in english.items() if k not in ("title", "detail")
    }


def test_a_401_and_a_404_are_in_arabic(make_player: Callable[..., Player]) -> None:
    anonymous = APIClient()
    body = _problem(
        anonymous.get("/api/v1/me", HTTP_ACCEPT_LANGUAGE="ar"), 401, "not_authenticated"
    )
    _arabic(body)
    revoked = APIClient()
    revoked.credentials(HTTP_AUTHORIZATION="Bearer not-a-token")
    body = _problem(
        revoked.get("/api/v1/me", HTTP_ACCEPT_LANGUAGE="ar"), 401, "authentication_failed"
    )
    _arabic(body)
    player = make_player()
    response = player.client.get("/api/v1/matches/999999", HTTP_ACCEPT_LANGUAGE="ar")
    _arabic(_problem(response, 404, "not_found"))
    # A path no view serves (Django's handler404) is answered in the header's language too.
    response = player.client.get("/api/v1/no-such-thing", HTTP_ACCEPT_LANGUAGE="ar")
    _arabic(_problem(response, 404, "not_found"))
    assert response["Content-Language"] == "ar"


def test_a_validation_error_is_in_arabic_with_the_same_field_codes(
    make_player: Callable[..., Player],
) -> None:
    player = make_player()
    bad = {"ruleset": "nope", "visiblity": "public"}
    english = _problem(player.client.post("/api/v1/matches", bad, format="json"), 400, "invalid")
    response = player.client.post("/api/v1/matches", bad, format="json", HTTP_ACCEPT_LANGUAGE="ar")
    arabic = _problem(response, 400, "invalid")
    _arabic(arabic)
    fields = lambda body: [(e["field"], e["code"]) for e in body["errors"]]  # noqa: E731
    assert fields(arabic) == fields(english)
    assert all(ARABIC.search(e["detail"]) for e in arabic["errors"]), arabic["errors"]


def test_the_account_language_wins_over_the_header(table: Callable[..., Any]) -> None:
    view, players = table()
    waiting = _out_of_turn(view, players)
    waiting.user.language = "ar"
    waiting.user.save(update_fields=["language"])
    url = f"/api/v1/matches/{view['id']}/moves"
    response = waiting.client.post(url, PASS, format="json", HTTP_ACCEPT_LANGUAGE="en")
    _arabic(_problem(response, 422, "not_your_turn"))
    assert response["Content-Language"] == "ar"
    missing = waiting.client.get("/api/v1/matches/999999", HTTP_ACCEPT_LANGUAGE="en")
    _arabic(_problem(missing, 404, "not_found"))
    # And the other way round: an English account reads English under an Arabic header.
    waiting.user.language = "en"
    waiting.user.save(update_fields=["language"])
    response = waiting.client.post(url, PASS, format="json", HTTP_ACCEPT_LANGUAGE="ar")
    body = _problem(response, 422, "not_your_turn")
    assert not ARABIC.search(body["title"] + body["detail"])
    assert response["Content-Language"] == "en"


def test_bot_names_are_arabic_for_an_arabic_caller_and_enums_stay(
    make_player: Callable[..., Player],
) -> None:
    player = make_player()
    created = create_match(player, bots={"1": "easy", "2": "normal", "3": "easy"})
    url = f"/api/v1/matches/{created['id']}"
    english = player.client.get(url).json()
    arabic_response = player.client.get(url, HTTP_ACCEPT_LANGUAGE="ar")
    arabic = arabic_response.json()
    names = {s["seat"]: s["display_name"] for s in arabic["seats"]}
    assert names[1] == names[3] == "بوت سهل" and names[2] == "بوت عادي"
    assert [s["display_name"] for s in english["seats"]][1:] == [
        "Easy bot",
        "Normal bot",
        "Easy bot",
    ]
    # Everything machine-readable is the same in both languages.
    for key in ("status", "ruleset", "visibility", "version", "scores", "round"):
        assert arabic[key] == english[key], key
    assert [s["bot"] for s in arabic["seats"]] == [s["bot"] for s in english["seats"]]
    # The ETag names the language: a copy in English is not current for an Arabic reader.
    etag = player.client.get(url)["ETag"]
    assert arabic_response["ETag"] != etag
    again = player.client.get(url, HTTP_IF_NONE_MATCH=etag, HTTP_ACCEPT_LANGUAGE="ar")
    assert again.status_code == 200


def test_push_texts_follow_the_account_language_over_the_device(
    make_player: Callable[..., Player], monkeypatch: Any
) -> None:
    from live.push import delivery

    player = make_player()
    body = {"platform": "fcm", "token": "device-token-en"}
    registered = player.client.post(
        "/api/v1/me/devices", body, format="json", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert registered.status_code == 201, registered.content
    assert registered.json()["language"] == "en"  # the device registered in English
    sent: list[dict[str, Any]] = []

    class Recorder:
        def send(self, device: Any, payload: dict[str, Any], collapse_key: str) -> Any:
            sent.append(payload)
            return delivery.Result.OK

    monkeypatch.setattr(delivery, "provider_for", lambda platform: Recorder())
    for language, title in (("", "Your turn"), ("ar", "دورك")):
        player.user.language = language
        player.user.save(update_fields=["language"])
        row = Notification.objects.create(
            key=f"i18n-{language}",
            user=player.user,
            kind="your_turn",
            data={},
            due_at=clock.now() - timedelta(seconds=1),
        )
        assert delivery.notification_deliver(notification_id=row.pk) == "sent"
        assert sent[-1]["title"] == title, sent[-1]
        assert sent[-1]["event"] == "your_turn"  # the machine-readable part stays


def test_an_arabic_display_name_registers_and_shows_in_the_view_the_list_and_the_admin(
    make_player: Callable[..., Player],
) -> None:
    from django.test import Client

    anonymous = APIClient()
    body = {"username": "noura_ar", "password": "correct horse battery", "display_name": "لاعب"}
    registered = anonymous.post("/api/v1/auth/register", body, format="json")
    assert registered.status_code == 201, registered.content
    token = registered.json()["token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    created = client.post("/api/v1/matches", {"visibility": "public"}, format="json")
    assert created.status_code == 201, created.content
    match_id = created.json()["id"]
    view = client.get(f"/api/v1/matches/{match_id}", HTTP_ACCEPT_LANGUAGE="ar").json()
    assert view["seats"][0]["display_name"] == "لاعب"
    listed = client.get("/api/v1/me/matches").json()
    assert "لاعب" in str(listed)
    staff = make_player("staff_ar")
    staff.user.is_staff = staff.user.is_superuser = True
    staff.user.language = "ar"
    staff.user.save(update_fields=["is_staff", "is_superuser", "language"])
    admin = Client()
    admin.force_login(staff.user)
    users = admin.get("/admin/accounts/user/?q=noura_ar")
    assert users.status_code == 200 and "لاعب" in users.content.decode()
    page = admin.get(f"/admin/games/match/{match_id}/change/")
    html = page.content.decode()
    assert page.status_code == 200 and page["Content-Language"] == "ar"
    assert "ورقة النتائج" in html and "لاعب" in html  # our own labels, in the user's language


def test_patch_me_answers_in_the_language_it_sets(make_player: Callable[..., Player]) -> None:
    player = make_player()
    response = player.client.patch(
        "/api/v1/me", {"language": "ar"}, format="json", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 200 and response.json()["language"] == "ar"
    assert response["Content-Language"] == "ar"
    # Cleared, the answer follows the header again, as the next request will.
    response = player.client.patch(
        "/api/v1/me", {"language": None}, format="json", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 200 and response.json()["language"] is None
    assert response["Content-Language"] == "en"
    # A change of name alone keeps the account's language.
    player.client.patch("/api/v1/me", {"language": "ar"}, format="json")
    response = player.client.patch(
        "/api/v1/me", {"display_name": "Amal"}, format="json", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 200 and response["Content-Language"] == "ar"
