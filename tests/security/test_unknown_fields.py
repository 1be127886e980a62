"""Unknown fields are refused on every write body (issue 9): ``400 invalid`` with the field
named and code ``unknown_field``, and nothing done. On the original code only ``/moves``
refused them; ``POST /matches``, join, reports, register and login silently ignored them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.models import AuthToken, User
from games.models import Match
from moderation.models import Report
from tests.support.api import API, assert_problem, match_url, to_act
from tests.support.players import Player, create_match


def unknown_fields(response: Any) -> dict[str, str]:
    body = assert_problem(response, 400, "invalid")
    return {e["field"]: e["code"] for e in body["errors"] if e["code"] == "unknown_field"}


def test_create_refuses_a_misspelt_option_and_creates_nothing(
    make_player: Callable[..., Player],
) -> None:
    me = make_player()
    body = {"visibility": "public", "visiblity": "private"}
    response = me.client.post(f"{API}/matches", body, format="json")
    assert unknown_fields(response) == {"visiblity": "unknown_field"}
    assert not Match.objects.exists()
    del body["visiblity"]
    assert me.client.post(f"{API}/matches", body, format="json").status_code == 201


def test_unknown_fields_are_reported_with_the_other_field_errors(
    make_player: Callable[..., Player],
) -> None:
    me = make_player()
    response = me.client.post(f"{API}/matches", {"target": "far", "zzz": 1}, format="json")
    body = assert_problem(response, 400, "invalid")
    assert {e["field"]: e["code"] for e in body["errors"]} == {
        "target": "invalid",
        "zzz": "unknown_field",
    }


def test_join_refuses_unknown_fields_and_seats_nobody(make_player: Callable[..., Player]) -> None:
    host, guest = make_player(), make_player()
    match = create_match(host, visibility="public")
    url = match_url(match["id"], "/join")
    response = guest.client.post(url, {"seat": 2, "team": 1}, format="json")
    assert unknown_fields(response) == {"team": "unknown_field"}
    assert not Match.objects.get(pk=match["id"]).seats.filter(user=guest.user).exists()
    assert guest.client.post(url, {"seat": 2}, format="json").status_code == 200


def test_reports_refuse_unknown_fields_and_file_nothing(table: Callable[..., Any]) -> None:
    view, players = table()
    url = match_url(view["id"], "/reports")
    body = {"seat": 1, "reason": "other", "severity": "high"}
    assert unknown_fields(players[0].client.post(url, body, format="json")) == {
        "severity": "unknown_field"
    }
    assert not Report.objects.exists()
    del body["severity"]
    assert players[0].client.post(url, body, format="json").status_code == 201


def test_register_refuses_unknown_fields_and_creates_no_account(anon: APIClient, db: None) -> None:
    body = {
        "username": "newcomer",
        "password": "a long passphrase",
        "display_name": "New",
        "is_staff": True,
    }
    response = anon.post(f"{API}/auth/register", body, format="json")
    assert unknown_fields(response) == {"is_staff": "unknown_field"}
    assert not User.objects.filter(username="newcomer").exists()
    del body["is_staff"]
    assert anon.post(f"{API}/auth/register", body, format="json").status_code == 201


def test_login_refuses_unknown_fields_and_issues_no_token(
    make_player: Callable[..., Player], anon: APIClient
) -> None:
    me = make_player()
    tokens = AuthToken.objects.count()
    body = {"username": me.user.username, "password": "correct horse battery", "remember": 1}
    assert unknown_fields(anon.post(f"{API}/auth/login", body, format="json")) == {
        "remember": "unknown_field"
    }
    assert AuthToken.objects.count() == tokens
    del body["remember"]
    assert anon.post(f"{API}/auth/login", body, format="json").status_code == 200


def test_moves_still_refuse_unknown_fields_nested_projects_included(
    table: Callable[..., Any],
) -> None:
    view, players = table()
    seat = to_act(view["id"])
    move = players[seat].client.get(match_url(view["id"])).json()["round"]["legal_moves"][0]
    url = match_url(view["id"], "/moves")
    response = players[seat].client.post(url, {**move, "seat": seat}, format="json")
    assert unknown_fields(response) == {"seat": "unknown_field"}
    project = {"kind": "sira", "cards": ["AS", "KS", "QS"], "bonus": 1}
    response = players[seat].client.post(
        url, {"type": "declare", "projects": [project]}, format="json"
    )
    fields = unknown_fields(response)
    assert len(fields) == 1 and next(iter(fields)).endswith("bonus"), fields
    assert Match.objects.get(pk=view["id"]).version == view["version"]


@pytest.mark.parametrize("path", ["/leave", "/resign", "/back"])
def test_operations_without_a_body_refuse_one_with_fields(
    table: Callable[..., Any], make_player: Callable[..., Player], path: str
) -> None:
    if path == "/leave":
        host, guest = make_player(), make_player()
        match = create_match(host, visibility="public")
        guest.client.post(match_url(match["id"], "/join"), {}, format="json")
        player, match_id = guest, match["id"]
    else:
        view, players = table()
        player, match_id = players[1], view["id"]
    version = Match.objects.get(pk=match_id).version
    response = player.client.post(match_url(match_id, path), {"force": True}, format="json")
    assert unknown_fields(response) == {"force": "unknown_field"}
    response = player.client.post(match_url(match_id, path), [1], format="json")
    assert_problem(response, 400, "invalid")
    assert Match.objects.get(pk=match_id).version == version
    # No body, or an empty object, is what these operations take.
    assert player.client.post(match_url(match_id, path), {}, format="json").status_code < 400


def test_logout_refuses_a_body_with_fields_and_keeps_the_token(
    make_player: Callable[..., Player],
) -> None:
    me = make_player()
    response = me.client.post(f"{API}/auth/logout", {"everywhere": True}, format="json")
    assert unknown_fields(response) == {"everywhere": "unknown_field"}
    assert me.client.get(f"{API}/me").status_code == 200
    assert me.client.post(f"{API}/auth/logout").status_code == 204


def test_every_request_body_in_the_schema_forbids_other_properties(anon: APIClient) -> None:
    schema = anon.get("/api/schema/?format=json").json()
    components = schema["components"]["schemas"]
    bodies = 0
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            content = operation.get("requestBody", {}).get("content", {})
            for media_type, media in content.items():
                if not media_type.endswith("json"):
                    # A picture (PUT /me/avatar): bytes, no fields.
                    assert media["schema"] == {"type": "string", "format": "binary"}
                    continue
                name = media["schema"]["$ref"].rsplit("/", 1)[-1]
                # A union (the move body, a push device per platform) forbids them in each member.
                members = [
                    components[ref["$ref"].rsplit("/", 1)[-1]]
                    for ref in components[name].get("oneOf", [])
                ] or [components[name]]
                for member in members:
                    assert member.get("additionalProperties") is False, (method, path)
                bodies += 1
    assert bodies >= 6
    assert components["ProjectRequest"]["additionalProperties"] is False
