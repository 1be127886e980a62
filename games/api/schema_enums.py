"""Value lists published as named enums in the OpenAPI schema (see ENUM_NAME_OVERRIDES)."""

from games import engine
from games.engine.cards import RANKS
from games.engine.cards import SUITS as SUIT_LETTERS

# The rulesets a match may be played under (``ruleset`` in requests and answers alike).
RULESETS = sorted(engine.RULESETS)
PHASES = ["bidding", "doubling", "playing", "over"]
SUITS = list(SUIT_LETTERS)
CARDS = [f"{rank}{suit}" for suit in SUIT_LETTERS for rank in RANKS]
BID_CALLS = [c.value for c in engine.Call]
DOUBLE_CALLS = [c.value for c in engine.DoubleCall]
# Every call of the record format, bids' and doubles' (a view's `calls` and `doubles` share
# one shape).
CALLS = list(dict.fromkeys([*BID_CALLS, *DOUBLE_CALLS]))
