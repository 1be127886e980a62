"""Failed-login backoff per account (django-axes), on the API and the admin login alike.

The attack: unlimited password guesses on /auth/login (with a rotating X-Forwarded-For) and
on /admin/login/, which had no limit at all.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import AuthToken
from baloot_site.errors import ERROR_CODES
from tests.support.api import assert_problem
from tests.support.auth import PASSWORD, assert_retry_after, login, set_rates
from tests.support.players import Player

LIMIT = 5
COOL_OFF = 15 * 60


@pytest.fixture(autouse=True)
def _generous_rates(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rate limits out of the way: what is shown here is the per-account lockout."""
    set_rates(monkeypatch, auth="1000/min", auth_address="1000/hour")


@pytest.fixture
def layla(make_player: Callable[..., Player]) -> Player:
    return make_player("layla")


def fail(client: Any, username: str, n: int, **meta: Any) -> Any:
    return login(client, username, f"wrong guess {n}", **meta)


def age_failures(username: str, by: timedelta) -> None:
    """Move the account's recorded failures back in time, as if ``by`` had passed."""
    from axes.models import AccessAttempt

    for attempt in AccessAttempt.objects.filter(username=username):
        AccessAttempt.objects.filter(pk=attempt.pk).update(attempt_time=attempt.attempt_time - by)


def assert_locked(response: Any) -> int:
    assert_problem(response, 429, "login_locked")
    return assert_retry_after(response, COOL_OFF)


def test_the_settings_are_the_documented_defaults() -> None:
    assert settings.AXES_FAILURE_LIMIT == LIMIT
    assert settings.AXES_COOLOFF_TIME.total_seconds() == COOL_OFF
    assert settings.AXES_LOCKOUT_PARAMETERS == ["username"]
    assert "login_locked" in ERROR_CODES


def test_five_wrong_passwords_lock_the_account_and_the_right_one_is_refused(
    layla: Player, anon: APIClient
) -> None:
    for n in range(LIMIT - 1):
        assert_problem(fail(anon, "layla", n), 401, "authentication_failed")
    assert_locked(fail(anon, "layla", LIMIT))  # the failure that reaches the limit
    tokens = AuthToken.objects.count()
    wait = assert_locked(login(anon, "layla", PASSWORD))
    assert wait > COOL_OFF - 60
    assert AuthToken.objects.count() == tokens
    # Tokens issued before the lockout keep working: the lock is on logging in.
    assert layla.client.get("/api/v1/me").status_code == 200


def test_the_lock_is_per_account_whatever_the_address_or_user_agent(
    layla: Player, make_player: Callable[..., Player], anon: APIClient
) -> None:
    amal = make_player("amal")
    for n in range(LIMIT):
        fail(anon, "layla", n, REMOTE_ADDR=f"198.51.100.{n}", HTTP_USER_AGENT=f"agent {n}")
    assert_locked(login(anon, "layla", REMOTE_ADDR="198.51.100.200", HTTP_USER_AGENT="new"))
    # Another account, from the very addresses that failed, is not affected.
    assert login(anon, amal.user.username, REMOTE_ADDR="198.51.100.0").status_code == 200


def test_the_lock_ends_after_the_cool_off_and_a_login_clears_the_failures(
    layla: Player, anon: APIClient
) -> None:
    from axes.models import AccessAttempt

    for n in range(LIMIT):
        fail(anon, "layla", n)
    assert_locked(login(anon, "layla"))
    age_failures("layla", timedelta(seconds=COOL_OFF + 1))
    assert login(anon, "layla").status_code == 200
    assert not AccessAttempt.objects.filter(username="layla").exists()


def test_failures_during_the_lockout_do_not_extend_it(layla: Player, anon: APIClient) -> None:
    """So an attacker hammering a locked account cannot keep its owner out for longer than
    one cool-off, and Retry-After stays true."""
    for n in range(LIMIT):
        fail(anon, "layla", n)
    age_failures("layla", timedelta(minutes=10))
    wait = assert_locked(fail(anon, "layla", 99))
    assert wait <= 5 * 60 + 5
    age_failures("layla", timedelta(minutes=5, seconds=1))
    assert login(anon, "layla").status_code == 200


def test_a_successful_login_resets_the_count(layla: Player, anon: APIClient) -> None:
    for n in range(LIMIT - 1):
        fail(anon, "layla", n)
    assert login(anon, "layla").status_code == 200
    for n in range(LIMIT - 1):
        assert_problem(fail(anon, "layla", n), 401, "authentication_failed")
    assert login(anon, "layla").status_code == 200


# --- The admin's login ----------------------------------------------------------------------


@pytest.fixture
def staff(make_player: Callable[..., Player]) -> Player:
    player = make_player("staffer")
    player.user.is_staff = True
    player.user.save(update_fields=["is_staff"])
    return player


def admin_login(client: Client, password: str) -> Any:
    return client.post(
        "/admin/login/", {"username": "staffer", "password": password, "next": "/admin/"}
    )


def assert_not_logged_in(client: Client) -> None:
    assert "_auth_user_id" not in client.session
    assert client.get("/admin/").status_code == 302  # to the login page


def test_the_admin_login_works_before_any_failure(staff: Player) -> None:
    client = Client()
    response = admin_login(client, PASSWORD)
    assert response.status_code == 302 and response["Location"] == "/admin/"
    assert client.get("/admin/").status_code == 200


def test_the_admin_login_locks_out_after_the_limit_too(staff: Player) -> None:
    client = Client()
    for n in range(LIMIT - 1):
        page = admin_login(client, f"wrong guess {n}")
        assert page.status_code == 200 and b"errornote" in page.content
    assert_locked(admin_login(client, "wrong guess 5"))
    assert_locked(admin_login(client, PASSWORD))
    assert_not_logged_in(client)
    # A fresh browser (new session, new address) is refused just the same.
    fresh = Client(REMOTE_ADDR="198.51.100.9")
    assert_locked(admin_login(fresh, PASSWORD))
    assert_not_logged_in(fresh)


def test_the_api_and_the_admin_count_failures_together(staff: Player, anon: APIClient) -> None:
    for n in range(LIMIT - 2):
        assert_problem(fail(anon, "staffer", n), 401, "authentication_failed")
    client = Client()
    assert admin_login(client, "wrong guess a").status_code == 200
    assert_locked(admin_login(client, "wrong guess b"))
    assert_locked(login(anon, "staffer"))


def test_the_lockout_reads_in_arabic_for_an_arabic_caller(layla: Player, anon: APIClient) -> None:
    for n in range(LIMIT - 1):
        fail(anon, "layla", n)
    for response in (
        fail(anon, "layla", LIMIT, HTTP_ACCEPT_LANGUAGE="ar"),  # the failure that locks
        login(anon, "layla", PASSWORD, HTTP_ACCEPT_LANGUAGE="ar"),  # and one while locked
    ):
        body = assert_problem(response, 429, "login_locked")
        assert re.search("[\u0600-\u06ff]", body["detail"]), body
        assert re.search("[\u0600-\u06ff]", body["title"]), body
