"""Fixtures of the endpoint tests (the shared ones live in tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.support.api import fix_deal


@pytest.fixture
def hokum_table(monkeypatch: pytest.MonkeyPatch, table: Callable[..., Any]) -> Callable[..., Any]:
    """Like ``table``, but dealt from HOKUM_HANDS with seat 0 dealing (seat 1 bids first)."""

    def make(**options: Any) -> Any:
        fix_deal(monkeypatch)
        return table(**options)

    return make
