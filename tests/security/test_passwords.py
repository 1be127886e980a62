"""Django's password validators on register and on every password change in the admin.

The attack: AUTH_PASSWORD_VALIDATORS was configured but never applied to registration, so
"password" and "12345678" were accepted.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import User
from tests.support.api import API, assert_problem
from tests.support.auth import PASSWORD
from tests.support.players import Player

NUMERIC = "83920174659"  # all digits, but in no list of common passwords


def register(client: APIClient, password: str, **fields: str) -> Any:
    body = {"username": "layla_h", "display_name": "Layla Harbi", "password": password, **fields}
    return client.post(f"{API}/auth/register", body, format="json")


def password_codes(response: Any) -> set[str]:
    """A 422 ``weak_password`` (the body is well formed: api.md) whose field errors are all on
    ``password``; their codes."""
    body = assert_problem(response, 422, "weak_password")
    assert {e["field"] for e in body["errors"]} == {"password"}, body["errors"]
    return {e["code"] for e in body["errors"]}


@pytest.mark.parametrize(
    ("password", "code"),
    [
        ("password", "password_too_common"),
        ("12345678", "password_too_common"),
        (NUMERIC, "password_entirely_numeric"),
        ("layla_harbi", "password_too_similar"),  # the username
        ("Layla Harbi!", "password_too_similar"),  # the public display name
    ],
)
def test_register_refuses_weak_passwords(
    db: None, anon: APIClient, password: str, code: str
) -> None:
    assert code in password_codes(register(anon, password))
    assert not User.objects.exists()


def test_register_accepts_a_good_password(db: None, anon: APIClient) -> None:
    assert register(anon, PASSWORD).status_code == 201
    assert User.objects.get().check_password(PASSWORD)


def test_weak_passwords_are_listed_with_the_other_field_errors(db: None, anon: APIClient) -> None:
    body = assert_problem(register(anon, "12345678", username="a b"), 400, "invalid")
    assert {e["field"] for e in body["errors"]} == {"username", "password"}


# --- Password changes in the admin --------------------------------------------------------------


@pytest.fixture
def superuser_client(make_player: Callable[..., Player]) -> Client:
    boss = make_player("boss")
    User.objects.filter(pk=boss.id).update(is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(User.objects.get(pk=boss.id))
    return client


def admin_set_password(client: Client, user: User, password: str) -> Any:
    return client.post(
        f"/admin/accounts/user/{user.pk}/password/",
        {"usable_password": "true", "password1": password, "password2": password},
    )


def test_the_admin_refuses_a_weak_password_for_a_user(
    superuser_client: Client, make_player: Callable[..., Player]
) -> None:
    layla = make_player("layla")
    page = admin_set_password(superuser_client, layla.user, NUMERIC)
    assert page.status_code == 200
    assert "password_entirely_numeric" in _error_codes(page)
    layla.user.refresh_from_db()
    assert layla.user.check_password(PASSWORD)
    # The same form with a good password goes through: the refusal above was the validator.
    done = admin_set_password(superuser_client, layla.user, "a much better passphrase")
    assert done.status_code == 302
    layla.user.refresh_from_db()
    assert layla.user.check_password("a much better passphrase")


def test_the_admin_refuses_a_weak_password_for_oneself(
    make_player: Callable[..., Player],
) -> None:
    staff = make_player("staffer")
    User.objects.filter(pk=staff.id).update(is_staff=True)
    client = Client()
    client.force_login(User.objects.get(pk=staff.id))
    page = client.post(
        "/admin/password_change/",
        {"old_password": PASSWORD, "new_password1": NUMERIC, "new_password2": NUMERIC},
    )
    assert page.status_code == 200
    assert "password_entirely_numeric" in _error_codes(page)
    assert User.objects.get(pk=staff.id).check_password(PASSWORD)


def _error_codes(page: Any) -> set[str]:
    form = page.context["form"]
    return {e.code for errors in form.errors.as_data().values() for e in errors}


def test_a_password_is_taken_as_sent_spaces_included(db: None, anon: APIClient) -> None:
    """Not trimmed: a password with spaces around it is that password, and the one without
    them is another (a trimmed field let "  x  " log in as "x")."""
    spaced = "  Tr1m me please  "
    assert register(anon, spaced).status_code == 201
    body = {"username": "layla_h", "password": spaced.strip()}
    assert_problem(
        anon.post(f"{API}/auth/login", body, format="json"), 401, "authentication_failed"
    )
    body["password"] = spaced
    assert anon.post(f"{API}/auth/login", body, format="json").status_code == 200
