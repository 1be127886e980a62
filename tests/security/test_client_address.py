"""The client address comes from trusted proxies only, and register and login have a second,
per-address budget.

The attack: DRF's throttles keyed anonymous callers by whatever X-Forwarded-For said, so a
client rotating that header got a fresh budget per request (500 accounts in 143 s).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import RequestFactory
from rest_framework.request import Request
from rest_framework.test import APIClient
from rest_framework.throttling import BaseThrottle, SimpleRateThrottle

from core.client_ip import client_ip
from tests.support.api import assert_problem
from tests.support.auth import assert_retry_after, login, register, set_rates
from tests.support.players import Player

PEER = "198.51.100.20"


def spoofed(n: int) -> dict[str, str]:
    return {"HTTP_X_FORWARDED_FOR": f"203.0.113.{n}", "REMOTE_ADDR": PEER}


# --- The rule ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("proxies", "forwarded", "remote", "expected"),
    [
        (0, None, "10.0.0.1", "10.0.0.1"),
        (0, "203.0.113.9", "10.0.0.1", "10.0.0.1"),  # no proxy: the header is the client's
        (1, None, "10.0.0.1", "10.0.0.1"),
        (1, "203.0.113.9", "10.0.0.1", "203.0.113.9"),
        (1, "1.2.3.4, 203.0.113.9", "10.0.0.1", "203.0.113.9"),  # 1.2.3.4 is the client's word
        (2, "1.2.3.4, 203.0.113.9, 10.0.0.2", "10.0.0.1", "203.0.113.9"),
        (2, "203.0.113.9", "10.0.0.1", "203.0.113.9"),  # fewer hops than proxies: the oldest
        (1, "2001:db8::7", "10.0.0.1", "2001:db8::7"),
        (1, "1.2.3.4, not-an-address", "10.0.0.1", "10.0.0.1"),  # garbage: the peer
    ],
)
def test_client_ip_takes_the_nth_address_from_the_right(
    settings: Any, proxies: int, forwarded: str | None, remote: str, expected: str
) -> None:
    settings.BALOOT_TRUSTED_PROXIES = proxies
    meta: dict[str, Any] = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        meta["HTTP_X_FORWARDED_FOR"] = forwarded
    assert client_ip(RequestFactory(**meta).get("/")) == expected


@pytest.mark.parametrize("proxies", [0, 1, 2])
@pytest.mark.parametrize(
    "forwarded", [None, "203.0.113.9", "1.2.3.4, 203.0.113.9", "1.2.3.4, 5.6.7.8, 203.0.113.9"]
)
def test_the_rule_is_drfs_num_proxies_rule(
    settings: Any, proxies: int, forwarded: str | None
) -> None:
    """Any stock DRF throttle (NUM_PROXIES) and ours agree, for every well-formed header."""
    settings.BALOOT_TRUSTED_PROXIES = proxies
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": proxies}
    meta: dict[str, Any] = {"REMOTE_ADDR": "10.0.0.1"}
    if forwarded is not None:
        meta["HTTP_X_FORWARDED_FOR"] = forwarded
    request = RequestFactory(**meta).get("/")
    assert client_ip(request) == BaseThrottle().get_ident(Request(request))


def test_the_default_trusts_no_proxy() -> None:
    from django.conf import settings

    assert settings.BALOOT_TRUSTED_PROXIES == 0
    assert settings.REST_FRAMEWORK["NUM_PROXIES"] == 0
    assert settings.AXES_CLIENT_IP_CALLABLE == "core.client_ip.client_ip"


# --- Rate limits ------------------------------------------------------------------------------


def test_rotating_x_forwarded_for_does_not_escape_the_register_limit(
    db: None, monkeypatch: pytest.MonkeyPatch, anon: APIClient
) -> None:
    set_rates(monkeypatch, auth="3/min", auth_address="1000/hour")
    for n in range(3):
        assert register(anon, **spoofed(n)).status_code == 201
    refused = register(anon, **spoofed(99))
    assert_problem(refused, 429, "throttled")
    assert_retry_after(refused, 60)
    # The budget is the peer's, not everyone's: another address still registers.
    other = register(anon, HTTP_X_FORWARDED_FOR="203.0.113.99", REMOTE_ADDR="198.51.100.21")
    assert other.status_code == 201, other.content


def test_rotating_x_forwarded_for_does_not_escape_the_login_limit(
    monkeypatch: pytest.MonkeyPatch, make_player: Callable[..., Player], anon: APIClient
) -> None:
    layla = make_player("layla")
    set_rates(monkeypatch, auth="3/min", auth_address="1000/hour")
    for n in range(3):
        response = login(anon, layla.user.username, f"guess number {n}", **spoofed(n))
        assert_problem(response, 401, "authentication_failed")
    guess = login(anon, layla.user.username, "guess number 4", **spoofed(4))
    assert_problem(guess, 429, "throttled")


def test_behind_one_trusted_proxy_the_client_is_the_last_hop(
    db: None, settings: Any, monkeypatch: pytest.MonkeyPatch, anon: APIClient
) -> None:
    """The proxy appends the address it saw; whatever the client put before it is ignored."""
    settings.BALOOT_TRUSTED_PROXIES = 1
    set_rates(monkeypatch, auth="3/min", auth_address="1000/hour")

    def via_proxy(claimed: str, client: str) -> dict[str, str]:
        return {"HTTP_X_FORWARDED_FOR": f"{claimed}, {client}", "REMOTE_ADDR": "10.0.0.1"}

    for n in range(3):
        assert register(anon, **via_proxy(f"1.1.1.{n}", "203.0.113.7")).status_code == 201
    assert_problem(register(anon, **via_proxy("1.1.1.9", "203.0.113.7")), 429, "throttled")
    # Another client behind the same proxy has its own budget.
    assert register(anon, **via_proxy("1.1.1.9", "203.0.113.8")).status_code == 201


def test_register_and_login_share_a_per_address_budget_besides_the_burst_limit(
    monkeypatch: pytest.MonkeyPatch, make_player: Callable[..., Player], anon: APIClient
) -> None:
    layla = make_player("layla")
    set_rates(monkeypatch, auth="1000/min", auth_address="4/hour")
    assert register(anon, **spoofed(1)).status_code == 201
    assert register(anon, **spoofed(2)).status_code == 201
    assert login(anon, layla.user.username, **spoofed(3)).status_code == 200
    assert_problem(
        login(anon, layla.user.username, "wrong guess!", **spoofed(4)), 401, "authentication_failed"
    )
    for refused in (register(anon, **spoofed(5)), login(anon, layla.user.username, **spoofed(6))):
        assert_problem(refused, 429, "throttled")
        assert_retry_after(refused, 3600)
    # Per address: someone else logs in.
    assert login(anon, layla.user.username, REMOTE_ADDR="198.51.100.77").status_code == 200


def test_the_per_address_limit_fails_open_when_the_cache_is_down(
    db: None, monkeypatch: pytest.MonkeyPatch, anon: APIClient
) -> None:
    class DownCache:
        def get(self, *args: Any, **kwargs: Any) -> Any:
            raise ConnectionRefusedError("cache down")

        set = get

    set_rates(monkeypatch, auth="1/min", auth_address="1/hour")
    monkeypatch.setattr(SimpleRateThrottle, "cache", DownCache())
    for n in range(3):
        assert register(anon, **spoofed(n)).status_code == 201


def test_failed_logins_are_recorded_with_the_same_address(
    settings: Any, make_player: Callable[..., Player], anon: APIClient
) -> None:
    from axes.models import AccessAttempt

    layla = make_player("layla")
    login(anon, layla.user.username, "wrong guess 1", **spoofed(1))
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {PEER}
    settings.BALOOT_TRUSTED_PROXIES = 1
    login(anon, layla.user.username, "wrong guess 2", **spoofed(2))
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {
        PEER,
        "203.0.113.2",
    }
