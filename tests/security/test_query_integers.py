"""Integer query parameters of the HTTP API take ASCII digits only (issue 23, strict
parameters): ``int()`` also takes ``" 1"``, ``"1_000"``, ``"+1"`` and any Unicode decimal digit,
which no client means and which the streams already refuse with 4400."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.support.api import API, assert_problem, match_url
from tests.support.players import Player

NOT_ASCII_INTEGERS = [
    "\u00b2",  # superscript two: str.isdigit() says yes, int() raises
    "\u0663",  # Arabic-Indic three: int() says 3
    "\uff11",  # fullwidth one: int() says 1
    "1_000",
    "+1",
    " 1",
    "1 ",
    "-0",
    "",
    "9" * 20,
]


@pytest.mark.parametrize("raw", NOT_ASCII_INTEGERS)
def test_after_on_the_move_log_is_ascii_digits_only(
    table: Callable[..., tuple[dict[str, Any], list[Player]]], raw: str
) -> None:
    match, players = table()
    response = players[0].client.get(match_url(match["id"], "/moves"), {"after": raw})
    body = assert_problem(response, 400, "invalid")
    assert [error["field"] for error in body["errors"]] == ["after"]


@pytest.mark.parametrize("raw", NOT_ASCII_INTEGERS)
def test_page_size_is_ascii_digits_only(make_player: Callable[..., Player], raw: str) -> None:
    me = make_player()
    response = me.client.get(f"{API}/me/matches", {"page_size": raw})
    body = assert_problem(response, 400, "invalid")
    assert [error["field"] for error in body["errors"]] == ["page_size"]


def test_plain_ascii_integers_are_still_taken(
    table: Callable[..., tuple[dict[str, Any], list[Player]]],
) -> None:
    match, players = table()
    moves = players[0].client.get(match_url(match["id"], "/moves"), {"after": "0"})
    assert moves.status_code == 200, moves.content
    page = players[0].client.get(f"{API}/me/matches", {"page_size": "007"})
    assert page.status_code == 200, page.content
