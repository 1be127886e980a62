"""The words a score sheet is read with, in the reader's language: its columns, the contract
(صن / حكم / أشكال, the suit of trump, دبل and the rest of the doubling ladder) and a round's
status. The API's score sheet stays machine-readable (codes, enums and numbers only); these
label it for people, in the admin's match page."""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.selectors.logs import ScoreSheetRow

SCORE_SHEET_TITLE = _("Score sheet")

# One per column of the sheet, in order.
SCORE_SHEET_COLUMNS: dict[str, Promise] = {
    "number": pgettext_lazy("score sheet", "Round"),
    "dealer": pgettext_lazy("score sheet", "Dealer"),
    "status": pgettext_lazy("score sheet", "Status"),
    "contract": pgettext_lazy("score sheet", "Contract"),
    "bidder_team": pgettext_lazy("score sheet", "Bidder team"),
    "bidder_failed": pgettext_lazy("score sheet", "Failed"),
    "abnat": pgettext_lazy("score sheet", "Abnat"),
    "points": pgettext_lazy("score sheet", "Points"),
    "totals": pgettext_lazy("score sheet", "Totals"),
}

CONTRACT_KINDS: dict[str, Promise] = {
    "hokum": pgettext_lazy("contract", "Hokum"),
    "sun": pgettext_lazy("contract", "Sun"),
    "ashkal": pgettext_lazy("contract", "Ashkal"),
}

SUITS: dict[str, Promise] = {
    "S": pgettext_lazy("suit", "Spades"),
    "H": pgettext_lazy("suit", "Hearts"),
    "D": pgettext_lazy("suit", "Diamonds"),
    "C": pgettext_lazy("suit", "Clubs"),
}

# The doubling ladder by multiplier (R: a contract doubled, tripled, fourfold; gahwa ends
# the match and is shown by its own column).
MULTIPLIERS: dict[int, Promise] = {
    2: pgettext_lazy("doubling", "Double"),
    3: pgettext_lazy("doubling", "Triple"),
    4: pgettext_lazy("doubling", "Four"),
}

ROUND_STATUSES: dict[str, Promise] = {
    "complete": pgettext_lazy("round status", "Complete"),
    "redeal": pgettext_lazy("round status", "Redeal"),
    "in_progress": pgettext_lazy("round status", "In progress"),
}

YES_NO: dict[bool, Promise] = {True: _("Yes"), False: _("No")}

CONTRACT_BY = _("%(contract)s by seat %(seat)s")


def all_labels() -> list[Promise]:
    """Every lazy label (the translation test walks them)."""
    groups: list[dict[Any, Promise]] = [
        SCORE_SHEET_COLUMNS,
        CONTRACT_KINDS,
        SUITS,
        MULTIPLIERS,
        ROUND_STATUSES,
        YES_NO,
    ]
    return [SCORE_SHEET_TITLE, CONTRACT_BY, *(text for group in groups for text in group.values())]


def contract_text(contract: dict[str, Any] | None) -> str:
    """A round's contract in words: its kind, the trump suit of a hokum, who bid it and how
    far it was doubled."""
    if not contract:
        return "-"
    kind = contract.get("kind") or ""
    words = [str(CONTRACT_KINDS.get(kind, kind))]
    trump = contract.get("trump")
    if trump:
        words.append(str(SUITS.get(trump, trump)))
    multiplier = contract.get("multiplier") or 1
    if multiplier in MULTIPLIERS:
        words.append(str(MULTIPLIERS[multiplier]))
    return str(CONTRACT_BY) % {"contract": " ".join(words), "seat": contract.get("declarer")}


def score_sheet_lines(rows: list[ScoreSheetRow]) -> list[dict[str, Any]]:
    """The sheet's rows as the admin shows them: the row, with its words in place."""
    return [
        {
            "row": row,
            "status": str(ROUND_STATUSES.get(row.status, row.status)),
            "contract": contract_text(row.contract),
            "bidder_failed": "-" if row.bidder_failed is None else str(YES_NO[row.bidder_failed]),
        }
        for row in rows
    ]
