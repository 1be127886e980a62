"""Accounts over HTTP: register, login, logout, profile; tokens are per device and revocable."""

from __future__ import annotations

from typing import Any

from rest_framework.test import APIClient

from accounts.models import AuthToken, User, hash_token
from tests.support.api import API, assert_field_errors, assert_problem

PASSWORD = "correct horse battery"


def register(client: APIClient, username: str = "layla", **extra: Any) -> Any:
    body = {"username": username, "password": PASSWORD, "display_name": "Layla", **extra}
    return client.post(f"{API}/auth/register", body, format="json")


def bearer(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def test_register_answers_with_a_working_token_and_the_user(db: None, anon: APIClient) -> None:
    response = register(anon)
    assert response.status_code == 201, response.content
    body = response.json()
    assert set(body) == {"token", "user"}
    assert body["user"]["username"] == "layla"
    assert body["user"]["display_name"] == "Layla"
    me = bearer(body["token"]).get(f"{API}/me")
    assert me.status_code == 200
    assert me.json()["id"] == body["user"]["id"]


def test_tokens_are_stored_only_as_their_hash(db: None, anon: APIClient) -> None:
    token = register(anon).json()["token"]
    stored = AuthToken.objects.get()
    assert stored.key_hash == hash_token(token)
    assert token not in {stored.key_hash, stored.device}


def test_register_refuses_a_taken_username_whatever_its_case(db: None, anon: APIClient) -> None:
    assert register(anon, "layla").status_code == 201
    # A conflict with an existing account, not a fault in the body: 409.
    assert_field_errors(
        register(anon, "LAYLA"), {"username": "unique"}, status=409, code="username_taken"
    )
    assert User.objects.count() == 1


def test_register_lists_every_invalid_field(db: None, anon: APIClient) -> None:
    response = anon.post(
        f"{API}/auth/register",
        {"username": "a b", "password": "short", "display_name": ""},
        format="json",
    )
    assert_field_errors(
        response, {"username": "invalid", "password": "min_length", "display_name": "blank"}
    )
    assert not User.objects.exists()


def test_register_refuses_a_body_that_is_not_an_object(db: None, anon: APIClient) -> None:
    response = anon.post(f"{API}/auth/register", ["layla"], format="json")
    assert_field_errors(response, {"body": "invalid"})


def test_login_issues_a_new_token_per_device_and_both_work(db: None, anon: APIClient) -> None:
    first = register(anon).json()["token"]
    response = anon.post(
        f"{API}/auth/login",
        {"username": "layla", "password": PASSWORD, "device": "tablet"},
        format="json",
    )
    assert response.status_code == 200, response.content
    second = response.json()["token"]
    assert second != first
    assert response.json()["user"]["username"] == "layla"
    assert AuthToken.objects.filter(device="tablet").count() == 1
    for token in (first, second):
        assert bearer(token).get(f"{API}/me").status_code == 200


def test_login_with_a_wrong_password_is_401_and_issues_nothing(db: None, anon: APIClient) -> None:
    register(anon)
    response = anon.post(
        f"{API}/auth/login", {"username": "layla", "password": "wrong password"}, format="json"
    )
    assert_problem(response, 401, "authentication_failed")
    unknown = anon.post(
        f"{API}/auth/login", {"username": "nobody", "password": PASSWORD}, format="json"
    )
    assert_problem(unknown, 401, "authentication_failed")
    assert AuthToken.objects.count() == 1


def test_login_without_a_password_is_a_field_error(db: None, anon: APIClient) -> None:
    response = anon.post(f"{API}/auth/login", {"username": "layla"}, format="json")
    assert_field_errors(response, {"password": "required"})


def test_logout_revokes_only_the_calling_token(db: None, anon: APIClient) -> None:
    phone = register(anon).json()["token"]
    tablet = anon.post(
        f"{API}/auth/login", {"username": "layla", "password": PASSWORD}, format="json"
    ).json()["token"]
    response = bearer(phone).post(f"{API}/auth/logout")
    assert response.status_code == 204
    refused = bearer(phone).get(f"{API}/me")
    assert_problem(refused, 401, "authentication_failed")
    assert refused["WWW-Authenticate"] == "Bearer"
    assert bearer(tablet).get(f"{API}/me").status_code == 200


def test_logout_needs_a_token(db: None, anon: APIClient) -> None:
    response = anon.post(f"{API}/auth/logout")
    assert_problem(response, 401, "not_authenticated")
    assert response["WWW-Authenticate"] == "Bearer"


def test_a_deactivated_users_tokens_stop_working_at_once(db: None, anon: APIClient) -> None:
    token = register(anon).json()["token"]
    User.objects.filter(username="layla").update(is_active=False)
    assert_problem(bearer(token).get(f"{API}/me"), 401, "authentication_failed")
    login = anon.post(
        f"{API}/auth/login", {"username": "layla", "password": PASSWORD}, format="json"
    )
    assert_problem(login, 401, "authentication_failed")


def test_malformed_authorization_headers_are_401(db: None) -> None:
    for header in ("Bearer", "Bearer two parts", "Bearer not-a-real-token"):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=header)
        response = client.get(f"{API}/me")
        assert_problem(response, 401, "authentication_failed")
        assert response["WWW-Authenticate"] == "Bearer"


def test_me_shows_the_profile_and_zero_statistics_for_a_new_player(
    db: None, anon: APIClient
) -> None:
    token = register(anon).json()["token"]
    body = bearer(token).get(f"{API}/me").json()
    assert body["username"] == "layla"
    assert body["display_name"] == "Layla"
    assert "date_joined" in body
    assert "password" not in body
    assert body["stats"] == {
        "played": 0,
        "finished": 0,
        "won": 0,
        "lost": 0,
        "resigned": 0,
        "abandoned": 0,
        "timeouts": 0,
    }
