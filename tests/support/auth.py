"""Helpers of the account-abuse tests: rate overrides and the two anonymous auth calls."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle

from tests.support.api import API
from tests.support.players import PASSWORD

_names = itertools.count(1)


def set_rates(monkeypatch: pytest.MonkeyPatch, **rates: str) -> None:
    """Override throttle rates by scope. ScopedRateThrottle copied settings.REST_FRAMEWORK's
    rates into a class attribute when it was imported, so that attribute is what counts."""
    merged = {**ScopedRateThrottle.THROTTLE_RATES, **rates}
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", merged)
    cache.clear()


def register(client: APIClient, username: str | None = None, **extra: Any) -> Any:
    body = {
        "username": username or f"sec{next(_names)}",
        "password": PASSWORD,
        "display_name": "Layla",
    }
    body.update({k: v for k, v in extra.items() if k in body})
    meta = {k: v for k, v in extra.items() if k not in body}
    return client.post(f"{API}/auth/register", body, format="json", **meta)


def login(client: APIClient, username: str, password: str = PASSWORD, **meta: Any) -> Any:
    body = {"username": username, "password": password}
    return client.post(f"{API}/auth/login", body, format="json", **meta)


def assert_retry_after(response: Any, most: int) -> int:
    wait = response["Retry-After"]
    assert wait.isdigit(), wait
    assert 1 <= int(wait) <= most, wait
    return int(wait)
