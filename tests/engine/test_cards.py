"""Deck, ranks and card values (rules.md R3-R6, examples E01-E03) and the card encoding."""

from __future__ import annotations

import pytest

from games.engine.cards import (
    DECK,
    SUITS,
    card_names,
    card_str,
    card_value,
    cards_of,
    mask_of,
    parse_card,
    parse_suit,
    suit_of,
)
from tests.engine.helpers import c, cs

HEARTS = parse_suit("H")
RANK_NAMES = ("A", "K", "Q", "J", "10", "9", "8", "7")


def test_R3_deck_is_32_cards_A_to_7_in_four_suits() -> None:
    """R3: 32 cards, ranks A K Q J 10 9 8 7 in S H D C, nothing from 2-6."""
    names = {card_str(x) for x in DECK}
    assert len(DECK) == 32 == len(names)
    expected = {f"{r}{s}" for s in "SHDC" for r in RANK_NAMES}
    assert names == expected
    for bad in ("6S", "2H", "1D", "11C", "AX", "", "10", "as"):
        with pytest.raises(ValueError):
            parse_card(bad)


def test_card_text_round_trips_and_sorts_in_record_order() -> None:
    """Cards sort by suit S H D C, then rank A K Q J 10 9 8 7 (record-format.md)."""
    for card in DECK:
        assert parse_card(card_str(card)) == card
    assert card_names(cs("7C AH 10S AS KH")) == ["AS", "10S", "AH", "KH", "7C"]
    assert cards_of(mask_of(cs("7C AS KH"))) == cs("AS KH 7C")
    assert [suit_of(c(f"A{s}")) for s in SUITS] == [0, 1, 2, 3]


def test_E01_sun_deck_is_120_abnat_130_with_last_trick() -> None:
    """E01 (R5, R6): every Sun suit is 30 abnat; the deck 120; with the last trick 130."""
    for suit in SUITS:
        assert sum(card_value(c(f"{r}{suit}"), None) for r in RANK_NAMES) == 30
    assert sum(card_value(x, None) for x in DECK) == 120
    assert sum(card_value(x, None) for x in DECK) + 10 == 130


def test_E02_hokum_deck_is_152_abnat_162_with_last_trick() -> None:
    """E02 (R5, R6): trump hearts is 62, the other suits 90; 152, and 162 with the last trick."""
    trump_suit = sum(card_value(x, HEARTS) for x in DECK if suit_of(x) == HEARTS)
    others = sum(card_value(x, HEARTS) for x in DECK if suit_of(x) != HEARTS)
    assert (trump_suit, others) == (62, 90)
    assert trump_suit + others == 152
    assert trump_suit + others + 10 == 162


def test_E03_jack_and_nine_values_depend_on_trump() -> None:
    """E03 (R5): Hokum hearts JH 20, 9H 14, JS 2, 9S 0; in Sun JH 2 and 9H 0."""
    assert card_value(c("JH"), HEARTS) == 20
    assert card_value(c("9H"), HEARTS) == 14
    assert card_value(c("JS"), HEARTS) == 2
    assert card_value(c("9S"), HEARTS) == 0
    assert card_value(c("JH"), None) == 2
    assert card_value(c("9H"), None) == 0


@pytest.mark.parametrize(
    ("rank", "plain", "trump"),
    [("A", 11, 11), ("10", 10, 10), ("K", 4, 4), ("Q", 3, 3), ("J", 2, 20), ("9", 0, 14),
     ("8", 0, 0), ("7", 0, 0)],
)  # fmt: skip
def test_R5_value_table(rank: str, plain: int, trump: int) -> None:
    """R5: the abnat table, Sun/plain column and trump column."""
    assert card_value(c(f"{rank}D"), None) == plain
    assert card_value(c(f"{rank}D"), parse_suit("S")) == plain
    assert card_value(c(f"{rank}D"), parse_suit("D")) == trump
