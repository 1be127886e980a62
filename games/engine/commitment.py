"""The deck commitment (api.md "Fair dealing", record-format.md): the one definition.

A round's deck is published as ``deck_commitment(salt, deck)`` when it is dealt and revealed
with its salt when the round is over, so anyone can check the deal was fixed in advance.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from .cards import Card, card_str


def deck_commitment(salt: str, deck: Iterable[Card] | Iterable[str]) -> str:
    """Hex SHA-256 of the UTF-8 text ``salt + ":" + ",".join(deck)``, the deck as card names
    (``"10S"``) in dealing order; engine cards and names may be given alike."""
    names = [c if isinstance(c, str) else card_str(c) for c in deck]
    return hashlib.sha256(f"{salt}:{','.join(names)}".encode()).hexdigest()
