"""Fair dealing (api.md): a deck from the OS CSPRNG, and its salt.

The commitment to a deck is ``engine.deck_commitment``, the one definition the record format's
replay checks too, so what the API publishes and what a record verifies cannot drift apart.
"""

from __future__ import annotations

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


def deck_names(deck: Sequence[engine.Card]) -> list[str]:
    return [card_str(c) for c in deck]
