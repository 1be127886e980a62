"""Value lists published as named enums in the OpenAPI schema (see ENUM_NAME_OVERRIDES)."""

from games.engine.cards import RANKS
from games.engine.cards import SUITS as SUIT_LETTERS

PHASES = ["bidding", "doubling", "playing", "over"]
SUITS = list(SUIT_LETTERS)
CARDS = [f"{rank}{suit}" for suit in SUIT_LETTERS for rank in RANKS]
