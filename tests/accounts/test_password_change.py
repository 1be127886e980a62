"""POST /me/password: the old password confirms, Django's validators judge the new one, and
every other token of the account is revoked while the caller's keeps working. A wrong old
password is `wrong_password`, counted as a failed login: enough of them lock the account."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from rest_framework.test import APIClient

from accounts.models import AuthToken, User
from tests.support.api import API, assert_field_errors, assert_problem
from tests.support.auth import login
from tests.support.players import PASSWORD, Player

URL = f"{API}/me/password"
NEW = "a much longer passphrase"


def client_for(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def second_device(player: Player) -> APIClient:
    response = login(APIClient(), player.user.username)
    assert response.status_code == 200, response.content
    return client_for(response.json()["token"])


def account(player: Player) -> tuple[str, list[Any]]:
    """The stored password hash and the live tokens."""
    hashed = User.objects.get(pk=player.id).password
    live = list(
        AuthToken.objects.filter(user=player.user, revoked_at__isnull=True)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    return hashed, live


def test_the_password_changes_and_only_the_other_devices_are_signed_out(
    make_player: Callable[..., Player], anon: APIClient
) -> None:
    amal = make_player()
    phone = second_device(amal)
    other_player = make_player()
    assert phone.get(f"{API}/me").status_code == 200

    response = amal.client.post(URL, {"old_password": PASSWORD, "new_password": NEW}, format="json")

    assert response.status_code == 204, response.content
    assert amal.client.get(f"{API}/me").status_code == 200  # the caller's token is kept
    assert_problem(phone.get(f"{API}/me"), 401, "authentication_failed")
    assert other_player.client.get(f"{API}/me").status_code == 200  # nobody else's
    assert_problem(login(anon, amal.user.username), 401, "authentication_failed")
    assert login(anon, amal.user.username, NEW).status_code == 200


def test_a_wrong_old_password_is_its_own_code_and_changes_nothing(
    make_player: Callable[..., Player],
) -> None:
    amal = make_player()
    second_device(amal)
    before = account(amal)

    response = amal.client.post(
        URL, {"old_password": "not my password", "new_password": NEW}, format="json"
    )

    body = assert_problem(response, 422, "wrong_password")
    assert [(e["field"], e["code"]) for e in body["errors"]] == [("old_password", "wrong_password")]
    assert account(amal) == before
    assert len(before[1]) == 2


def test_the_new_password_meets_the_validators_and_a_refusal_changes_nothing(
    make_player: Callable[..., Player],
) -> None:
    amal = make_player("amalsalem")
    before = account(amal)
    # Too short is the schema's (400); the validators' other refusals are a 422.
    for new, code, status, problem in [
        ("password123", "password_too_common", 422, "weak_password"),
        ("amalsalem1", "password_too_similar", 422, "weak_password"),
        ("short", "min_length", 400, "invalid"),
        ("83749261537", "password_entirely_numeric", 422, "weak_password"),
    ]:
        response = amal.client.post(
            URL, {"old_password": PASSWORD, "new_password": new}, format="json"
        )
        body = assert_problem(response, status, problem)
        assert code in {e["code"] for e in body["errors"] if e["field"] == "new_password"}, body
    assert_field_errors(
        amal.client.post(URL, {"new_password": NEW, "device": "x"}, format="json"),
        {"old_password": "required", "device": "unknown_field"},
    )
    assert account(amal) == before


def test_wrong_old_passwords_lock_the_account_like_failed_logins(
    make_player: Callable[..., Player], anon: APIClient
) -> None:
    amal = make_player()
    before = account(amal)
    wrong = {"old_password": "not my password", "new_password": NEW}
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert_problem(amal.client.post(URL, wrong, format="json"), 422, "wrong_password")

    locked = amal.client.post(URL, wrong, format="json")

    assert_problem(locked, 429, "login_locked")
    assert int(locked["Retry-After"]) >= 1
    right = {"old_password": PASSWORD, "new_password": NEW}
    assert_problem(amal.client.post(URL, right, format="json"), 429, "login_locked")
    assert_problem(login(anon, amal.user.username), 429, "login_locked")
    assert account(amal) == before


def test_anonymous_revoked_and_sanctioned_callers_may_not_change_it(
    anon: APIClient, revoked: APIClient, banned: Player
) -> None:
    body = {"old_password": PASSWORD, "new_password": NEW}
    assert_problem(anon.post(URL, body, format="json"), 401, "not_authenticated")
    assert_problem(revoked.post(URL, body, format="json"), 401, "authentication_failed")
    before = account(banned)
    assert_problem(banned.client.post(URL, body, format="json"), 403, "account_banned")
    assert account(banned) == before
