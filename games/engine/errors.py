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


def gettext_noop(message: str) -> str:
    """``message`` itself. The name marks the sentences below for the translation catalog
    (Django's makemessages looks for it) while the engine stays free of Django."""
    return message


# The sentence of each refusal code, the one definition. A refusal whose code says it all
# carries its code's sentence as its message (rules.py); the others carry a message that names
# the seat or the value. The API answers in English with the refusal's message, and in another
# language with its code's sentence translated (baloot_site/errors.py, the Arabic catalog).
REFUSALS: dict[str, str] = {
    "malformed": gettext_noop("this is not a well-formed move"),
    "not_your_turn": gettext_noop("it is not your turn"),
    "illegal_call": gettext_noop("that call is not allowed now"),
    "card_not_held": gettext_noop("that card is not in your hand"),
    "locked_trump_lead": gettext_noop("the round is locked: lead a non-trump card"),
    "must_follow_suit": gettext_noop("you must follow the led suit"),
    "must_trump": gettext_noop("you must play a trump"),
    "must_overtrump": gettext_noop("you must play a trump higher than the winning one"),
    "invalid_project": gettext_noop("that declaration of projects is not valid"),
}


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
