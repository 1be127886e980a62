"""Fixtures of the endpoint tests (the shared ones live in tests/conftest.py)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from games.services import state as services  # where the deal is made
from tests.support.api import fix_deal


@pytest.fixture
def hokum_table(monkeypatch: pytest.MonkeyPatch, table: Callable[..., Any]) -> Callable[..., Any]:
    """Like ``table``, but dealt from HOKUM_HANDS with seat 0 dealing (seat 1 bids first)."""

    def make(**options: Any) -> Any:
        fix_deal(monkeypatch)
        return table(**options)

    return make


@pytest.fixture
def seeded_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """Random but reproducible deals (and first dealers), so a test that plays whole matches
    plays the same ones, at the same cost, on every run."""
    rng = random.Random(20240611)

    def shuffled() -> list[int]:
        deck = list(range(32))
        rng.shuffle(deck)
        return deck

    monkeypatch.setattr(services, "shuffled_deck", shuffled)
    monkeypatch.setattr(services.secrets, "randbelow", lambda n: rng.randrange(n))
