"""The replay's output as indented JSON text, fast: byte for byte what ``json.dumps(output,
indent=2)`` writes.

With ``indent`` set, the standard library encodes in pure Python, a generator yielding a chunk
per token, and ``json.dump`` writes each chunk separately: on a long record that was the largest
single cost of ``python -m games.engine replay``. The output object has a fixed shape
(record-format.md "Output"): a list of rounds, each with a contract, up to eight tricks of four
cards and a result. Those parts are written here from templates with their indentation fixed
in advance; anything else, and any part whose keys are not the expected ones, goes through
``json.dumps`` itself, re-indented to its depth (a JSON string never holds a raw newline, so
adding the indentation after each newline is exact). The tests compare this with ``json.dumps``
on every output they make.
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring_ascii
from typing import Any

from .cards import card_names, card_str, suit_str
from .scoring import RoundResult
from .state import RoundLog

_PAD = tuple(" " * (2 * level) for level in range(16))  # the indentation of each depth

# The quoted names of the 32 cards: a card list holds nothing else.
_QUOTED = {card_str(c): f'"{card_str(c)}"' for c in range(32)}

_TRICK_KEYS = ("leader", "cards", "winner", "abnat")
_CONTRACT_KEYS = (
    "kind",
    "mode",
    "trump",
    "declarer",
    "recipient",
    "bidding_round",
    "multiplier",
    "gahwa",
    "locked",
)
_ROUND_KEYS = ("dealer", "face_up", "status", "contract", "tricks", "result")
_RESULT_KEYS = (
    "abnat",
    "card_points",
    "projects",
    "baloot",
    "kaboot",
    "bidder_team",
    "bidder_failed",
    "points",
    "gahwa_winner",
)
_PROJECTS_KEYS = ("declared", "awarded_team", "points")


class Rendered(str):
    """A round already written as JSON text at its depth in the output (``finished_round``):
    ``dumps_indented`` puts it in place as it is."""

    __slots__ = ()


def dumps_indented(value: Any, end: str = "") -> str:
    """``json.dumps(value, indent=2) + end``, where a round of the output's ``rounds`` may be
    a ``Rendered`` text (anything else is the plain JSON value it is)."""
    if type(value) is dict and "rounds" in value:
        # The pieces are joined once: on a long record the text is tens of megabytes, and
        # every concatenation of it would be another copy and another fresh allocation for
        # the kernel to fault in page by page.
        pieces = _output(value)
        pieces.append(end)
        return "".join(pieces)
    return json.dumps(value, indent=2) + end


def _generic(value: Any, depth: int) -> str:
    """``value`` as ``json.dumps(..., indent=2)`` writes it at ``depth``."""
    if value is None:
        return "null"
    if value == [] and type(value) is list:
        return "[]"
    text = json.dumps(value, indent=2)
    return text.replace("\n", "\n" + _PAD[depth]) if depth else text


class _NotTemplated(Exception):
    """A value of another shape than the template's: the caller writes it with json.dumps."""


def _scalar(value: Any) -> str:
    """A scalar as JSON; anything else raises _NotTemplated."""
    kind = type(value)
    if kind is int:
        return int.__repr__(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if kind is str:
        return encode_basestring_ascii(value)
    raise _NotTemplated


def _items(pairs: list[str], depth: int, open_: str, close: str) -> str:
    if not pairs:
        return open_ + close
    pad = _PAD[depth + 1]
    return f"{open_}\n{pad}" + f",\n{pad}".join(pairs) + f"\n{_PAD[depth]}{close}"


def _output(output: dict[str, Any]) -> list[str]:
    """The pieces of the output's text, in order (at least one key: it has ``rounds``)."""
    pieces: list[str] = []
    separator = "{\n  "
    for key, value in output.items():
        pieces += (separator, encode_basestring_ascii(key), ": ")
        separator = ",\n  "
        if key == "rounds" and type(value) is list and value:
            opening = "[\n    "
            for round_ in value:
                pieces += (opening, _round(round_))
                opening = ",\n    "
            pieces.append("\n  ]")
        else:
            pieces.append(_generic(value, 1))
    pieces.append("\n}")
    return pieces


def _round(round_: Any) -> str:  # at depth 2
    if type(round_) is Rendered:
        return round_
    if type(round_) is not dict or tuple(round_) != _ROUND_KEYS:
        return _generic(round_, 2)
    try:
        return _round_templated(round_)
    except _NotTemplated:
        return _generic(round_, 2)


def _round_templated(round_: dict[str, Any]) -> str:
    contract = round_["contract"]
    tricks = round_["tricks"]
    return (
        "{\n"
        f'      "dealer": {_scalar(round_["dealer"])},\n'
        f'      "face_up": {_scalar(round_["face_up"])},\n'
        f'      "status": {_scalar(round_["status"])},\n'
        f'      "contract": {"null" if contract is None else _contract(contract)},\n'
        f'      "tricks": {_tricks(tricks)},\n'
        f'      "result": {_result(round_["result"])}\n'
        "    }"
    )


def _contract(contract: Any) -> str:  # at depth 3
    if type(contract) is not dict or tuple(contract) != _CONTRACT_KEYS:
        return _generic(contract, 3)
    s = _scalar
    c = contract
    return (
        "{\n"
        f'        "kind": {s(c["kind"])},\n'
        f'        "mode": {s(c["mode"])},\n'
        f'        "trump": {s(c["trump"])},\n'
        f'        "declarer": {s(c["declarer"])},\n'
        f'        "recipient": {s(c["recipient"])},\n'
        f'        "bidding_round": {s(c["bidding_round"])},\n'
        f'        "multiplier": {s(c["multiplier"])},\n'
        f'        "gahwa": {s(c["gahwa"])},\n'
        f'        "locked": {s(c["locked"])}\n'
        "      }"
    )


def _tricks(tricks: Any) -> str:  # at depth 3
    if type(tricks) is not list:
        return _generic(tricks, 3)
    return _items([_trick(t) for t in tricks], 3, "[", "]")


def _trick(trick: Any) -> str:  # at depth 4
    if type(trick) is not dict or tuple(trick) != _TRICK_KEYS:
        return _generic(trick, 4)
    cards = trick["cards"]
    quoted = [_QUOTED.get(c) for c in cards] if type(cards) is list else [None]
    if None in quoted:
        listed = _generic(cards, 5)
    elif quoted:
        listed = "[\n            " + ",\n            ".join(quoted) + "\n          ]"  # type: ignore[arg-type]
    else:
        listed = "[]"
    return (
        "{\n"
        f'          "leader": {_scalar(trick["leader"])},\n'
        f'          "cards": {listed},\n'
        f'          "winner": {_scalar(trick["winner"])},\n'
        f'          "abnat": {_scalar(trick["abnat"])}\n'
        "        }"
    )


def _pair(values: Any, depth: int = 4) -> str:  # a list of two scalars
    if type(values) is not list or len(values) != 2:
        raise _NotTemplated
    pad = _PAD[depth + 1]
    return f"[\n{pad}{_scalar(values[0])},\n{pad}{_scalar(values[1])}\n{_PAD[depth]}]"


def _result(result: Any) -> str:  # at depth 3
    if result is None:
        return "null"
    keys = tuple(result) if type(result) is dict else ()
    if keys[:9] != _RESULT_KEYS or len(keys) > 10 or keys[9:] not in ((), ("sawa",)):
        return _generic(result, 3)
    projects = result["projects"]
    if type(projects) is not dict or tuple(projects) != _PROJECTS_KEYS:
        raise _NotTemplated
    baloot = result["baloot"]
    if type(baloot) is not list:
        raise _NotTemplated
    sawa = f',\n        "sawa": {_generic(result["sawa"], 4)}' if len(keys) == 10 else ""
    return (
        "{\n"
        f'        "abnat": {_pair(result["abnat"])},\n'
        f'        "card_points": {_pair(result["card_points"])},\n'
        '        "projects": {\n'
        f'          "declared": {_declared(projects["declared"])},\n'
        f'          "awarded_team": {_scalar(projects["awarded_team"])},\n'
        f'          "points": {_pair(projects["points"], 5)}\n'
        "        },\n"
        f'        "baloot": {_items([_scalar(s) for s in baloot], 4, "[", "]")},\n'
        f'        "kaboot": {_scalar(result["kaboot"])},\n'
        f'        "bidder_team": {_scalar(result["bidder_team"])},\n'
        f'        "bidder_failed": {_scalar(result["bidder_failed"])},\n'
        f'        "points": {_pair(result["points"])},\n'
        f'        "gahwa_winner": {_scalar(result["gahwa_winner"])}{sawa}\n'
        "      }"
    )


_DECLARED_KEYS = ("seat", "kind", "cards")


def _declared(declared: Any) -> str:  # a list of {seat, kind, cards}, at depth 5
    if type(declared) is not list:
        raise _NotTemplated
    if not declared:
        return "[]"
    items = []
    for project in declared:
        if type(project) is not dict or tuple(project) != _DECLARED_KEYS:
            raise _NotTemplated
        cards = project["cards"]
        quoted = [_QUOTED.get(c) for c in cards] if type(cards) is list else [None]
        if not quoted or None in quoted:
            raise _NotTemplated
        items.append(
            "{\n"
            f'              "seat": {_scalar(project["seat"])},\n'
            f'              "kind": {_scalar(project["kind"])},\n'
            '              "cards": [\n                '
            + ",\n                ".join(quoted)  # type: ignore[arg-type]
            + "\n              ]\n            }"
        )
    return "[\n            " + ",\n            ".join(items) + "\n          ]"


# --- Complete rounds straight from their logs ----------------------------------------------
#
# ``finished_round`` writes what ``_round(codec.record_format.finished_round_to_dict(log))``
# writes without making the dictionaries first: a long record is mostly complete rounds. The
# tests compare the two on every round they replay.

_CARD_NAMES = tuple(card_str(c) for c in range(32))
_JSON = {None: "null", False: "false", True: "true"}


def _opt(value: int | None) -> str:
    return "null" if value is None else int.__repr__(value)


def finished_round(log: RoundLog, *, with_sawa: bool) -> Rendered:
    """The output of a complete (or redealt) round, as ``finished_round_to_dict`` has it."""
    contract = log.contract
    if contract is None:
        contract_text = "null"
    else:
        trump = "null" if contract.trump is None else f'"{suit_str(contract.trump)}"'
        contract_text = (
            "{\n"
            f'        "kind": "{contract.kind.value}",\n'
            f'        "mode": "{contract.mode.value}",\n'
            f'        "trump": {trump},\n'
            f'        "declarer": {contract.declarer},\n'
            f'        "recipient": {contract.recipient},\n'
            f'        "bidding_round": {contract.bidding_round},\n'
            f'        "multiplier": {log.multiplier},\n'
            f'        "gahwa": {_JSON[log.gahwa]},\n'
            f'        "locked": {_JSON[log.locked]}\n'
            "      }"
        )
    if log.tricks:
        # A trick in a log is complete: its four cards are written by one template.
        n = _CARD_NAMES
        tricks_text = (
            "[\n        "
            + ",\n        ".join(
                [
                    "{\n"
                    f'          "leader": {t.leader},\n'
                    f'          "cards": [\n            "{n[t.cards[0]]}",\n'
                    f'            "{n[t.cards[1]]}",\n            "{n[t.cards[2]]}",\n'
                    f'            "{n[t.cards[3]]}"\n          ],\n'
                    f'          "winner": {t.winner},\n'
                    f'          "abnat": {t.abnat}\n'
                    "        }"
                    for t in log.tricks
                ]
            )
            + "\n      ]"
        )
    else:
        tricks_text = "[]"
    return Rendered(
        "{\n"
        f'      "dealer": {log.dealer},\n'
        f'      "face_up": "{card_str(log.deck[20])}",\n'
        f'      "status": "{log.status.value}",\n'
        f'      "contract": {contract_text},\n'
        f'      "tricks": {tricks_text},\n'
        f'      "result": {_result_of(log.result, with_sawa)}\n'
        "    }"
    )


def _result_of(result: RoundResult, with_sawa: bool) -> str:  # at depth 3
    if result.declared:
        projects = [
            "{\n"
            f'              "seat": {seat},\n'
            f'              "kind": "{project.kind.value}",\n'
            '              "cards": [\n                '
            + ",\n                ".join([f'"{name}"' for name in card_names(project.cards)])
            + "\n              ]\n            }"
            for seat, declared in result.declared
            for project in declared
        ]
        declared_text = "[\n            " + ",\n            ".join(projects) + "\n          ]"
    else:
        declared_text = "[]"
    if result.baloot:
        baloot_text = (
            "[\n          " + ",\n          ".join(map(str, result.baloot)) + "\n        ]"
        )
    else:
        baloot_text = "[]"
    if with_sawa:
        sawa = result.sawa
        sawa_text = (
            ',\n        "sawa": null'
            if sawa is None
            else (
                ',\n        "sawa": {\n'
                f'          "seat": {sawa.seat},\n'
                f'          "valid": {_JSON[sawa.valid]}\n'
                "        }"
            )
        )
    else:
        sawa_text = ""
    a, b = result.abnat
    c, d = result.card_points
    e, f = result.project_points
    g, h = result.points
    return (
        "{\n"
        f'        "abnat": [\n          {a},\n          {b}\n        ],\n'
        f'        "card_points": [\n          {c},\n          {d}\n        ],\n'
        '        "projects": {\n'
        f'          "declared": {declared_text},\n'
        f'          "awarded_team": {_opt(result.awarded_team)},\n'
        f'          "points": [\n            {e},\n            {f}\n          ]\n'
        "        },\n"
        f'        "baloot": {baloot_text},\n'
        f'        "kaboot": {_opt(result.kaboot)},\n'
        f'        "bidder_team": {_opt(result.bidder_team)},\n'
        f'        "bidder_failed": {_JSON[result.bidder_failed]},\n'
        f'        "points": [\n          {g},\n          {h}\n        ],\n'
        f'        "gahwa_winner": {_opt(result.gahwa_winner)}{sawa_text}\n'
        "      }"
    )
