"""Fair dealing (api.md): a deck from the OS CSPRNG and a public commitment to it."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence

from games import engine
from games.engine.cards import card_str

_rng = secrets.SystemRandom()


def shuffled_deck() -> list[int]:
    deck = list(range(32))
    _rng.shuffle(deck)
    return deck


def new_salt() -> str:
    return secrets.token_hex(16)  # 32 hex characters


def commitment(salt: str, deck_names: Sequence[str]) -> str:
    """Hex SHA-256 of ``salt + ":" + ",".join(deck)`` (deck in dealing order)."""
    return hashlib.sha256(f"{salt}:{','.join(deck_names)}".encode()).hexdigest()


def deck_names(deck: Sequence[engine.Card]) -> list[str]:
    return [card_str(c) for c in deck]
