"""Fixtures of the endpoint tests (the shared ones live in tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.api.helpers import fix_deal


@pytest.fixture
def hokum_table(monkeypatch: pytest.MonkeyPatch, table: Callable[..., Any]) -> Callable[..., Any]:
    """Like ``table``, but dealt from HOKUM_HANDS with seat 0 dealing (seat 1 bids first)."""

    def make(**options: Any) -> Any:
        fix_deal(monkeypatch)
        return table(**options)

    return make


@pytest.fixture
def no_throttling(monkeypatch: pytest.MonkeyPatch) -> None:
    """For crawls that read far more than a real client's per-minute budget."""
    from rest_framework.throttling import ScopedRateThrottle

    monkeypatch.setattr(ScopedRateThrottle, "allow_request", lambda self, request, view: True)
