"""The engine's two kinds of error, each with a stable code (record-format.md).

``MalformedMove`` is input that is not a move at all; ``IllegalMove`` is a well-formed move
the rules refuse. The API passes ``code`` through unchanged.
"""

from __future__ import annotations

ILLEGAL_CODES = frozenset(
    {
        "not_your_turn",
        "illegal_call",
        "card_not_held",
        "locked_trump_lead",
        "must_follow_suit",
        "invalid_project",
    }
)
# rules-saudi.md S.3: the refusals of compulsory trumping, after must_follow_suit in check order.
# Kept apart so that ILLEGAL_CODES stays the record format's gamerules list.
SAUDI_ILLEGAL_CODES = frozenset({"must_trump", "must_overtrump"})
ALL_ILLEGAL_CODES = ILLEGAL_CODES | SAUDI_ILLEGAL_CODES


class EngineError(Exception):
    code: str = "engine_error"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.message = message


class MalformedMove(EngineError):
    code = "malformed"


class IllegalMove(EngineError):
    def __init__(self, code: str, message: str) -> None:
        if code not in ALL_ILLEGAL_CODES:
            raise ValueError(f"unknown illegal-move code {code!r}")
        super().__init__(message, code=code)
