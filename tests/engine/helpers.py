"""Shared helpers for the engine rule tests: card parsing, decks that deal chosen hands, and
driving a round through ``apply`` (rules.md R8, R9)."""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence

import pytest

from games.engine import GAMERULES, apply, legal_moves, new_match, start_round
from games.engine.bidding import bidding_order
from games.engine.cards import Card, card_str, cards_of, parse_card, parse_suit
from games.engine.errors import EngineError
from games.engine.moves import (
    Bid,
    Call,
    Declare,
    Double,
    DoubleCall,
    Move,
    Play,
    Project,
    ProjectKind,
)
from games.engine.rules import to_act
from games.engine.rulesets import Ruleset
from games.engine.state import GameState, Phase


def c(text: str) -> Card:
    """One card: ``c("10S")``."""
    return parse_card(text)


def cs(text: str) -> list[Card]:
    """Cards from a space-separated string: ``cs("JH AH 10S")``."""
    return [parse_card(t) for t in text.split()]


def mask(text: str) -> int:
    out = 0
    for card in cs(text):
        out |= 1 << card
    return out


def names(cards: Iterable[Card]) -> set[str]:
    return {card_str(x) for x in cards}


def hand_names(state: GameState, seat: int) -> set[str]:
    return names(cards_of(state.hands[seat]))


def deck_for(
    hands: dict[int, str],
    *,
    dealer: int = 0,
    recipient: int,
    face_up: str,
) -> list[Card]:
    """A deck D[0..31] that deals exactly ``hands`` (final 8-card hands) under R8/R9.

    The recipient's hand must contain ``face_up``. Of every other card listed for a seat, the
    first five go to the initial deal and the rest come from the stock, in the order listed.
    """
    order = bidding_order(dealer)
    deck: list[Card | None] = [None] * 32
    up = c(face_up)
    deck[20] = up
    stock_pos = 21
    for i, seat in enumerate(order):
        cards = [x for x in cs(hands[seat]) if x != up]
        expected = 7 if seat == recipient else 8
        assert len(cards) == expected, (seat, hands[seat])
        if seat == recipient:
            assert up in cs(hands[seat])
        first, stock = cards[:5], cards[5:]
        deck[3 * i : 3 * i + 3] = first[:3]
        deck[12 + 2 * i : 14 + 2 * i] = first[3:]
        deck[stock_pos : stock_pos + len(stock)] = stock
        stock_pos += len(stock)
    assert None not in deck
    full = [x for x in deck if x is not None]
    assert sorted(full) == list(range(32)), "hands must use all 32 cards exactly once"
    return full


def bid(call: str, suit: str | None = None) -> Bid:
    return Bid(Call(call), parse_suit(suit) if suit is not None else None)


def dbl(call: str) -> Double:
    return Double(DoubleCall(call))


def play(card: str) -> Play:
    return Play(c(card))


def run(state: GameState, moves: Sequence[tuple[int, Move]]) -> GameState:
    for seat, move in moves:
        state = apply(state, seat, move)
    return state


def calls(state: GameState, script: str) -> GameState:
    """Apply bids written as ``"1 pass, 2 hokum, 2 hokum:D"`` (seat, call[, :suit])."""
    for item in script.split(","):
        seat_text, call_text = item.split()
        call, _, suit = call_text.partition(":")
        state = apply(state, int(seat_text), bid(call, suit or None))
    return state


def doubles(state: GameState, script: str) -> GameState:
    """Apply doubling calls written as ``"3 pass, 1 double"``."""
    for item in script.split(","):
        seat_text, call = item.split()
        state = apply(state, int(seat_text), dbl(call))
    return state


def plays(state: GameState, script: str) -> GameState:
    """Play cards in turn order, written as ``"9H 8S JH 8H"`` (the seat is whoever acts)."""
    for card in script.split():
        seat = to_act(state)
        assert seat is not None
        state = apply(state, seat, play(card))
    return state


def dealt(
    hands: dict[int, str],
    *,
    recipient: int,
    face_up: str,
    dealer: int = 0,
    scores: tuple[int, int] = (0, 0),
    ruleset: Ruleset = GAMERULES,
) -> GameState:
    """A new match with a round dealt from a deck yielding ``hands``."""
    state = new_match(ruleset, dealer=dealer, scores=scores)
    return start_round(state, deck_for(hands, dealer=dealer, recipient=recipient, face_up=face_up))


# E99's final hands (rules.md 6.11): Hokum hearts, dealer 0, face-up KH, declarer 2.
E99_HANDS = {
    0: "JH AH 10S 9S KD QD 8C 7C",
    1: "8H 10H QS JS AD 9D AC 10C",
    2: "KH QH 9H 7H AS KS 8D JC",
    3: "8S 7S 10D JD 7D KC QC 9C",
}
E99_BIDDING = "1 pass, 2 hokum, 3 pass, 0 pass, 1 pass, 2 hokum"
E99_TRICKS = (
    "9H 8S JH 8H",
    "AH 10H 7H 7S",
    "10S JS AS 7D",
    "KH 9C 9S 9D",
    "KS JD 8C QS",
    "QH QC 7C 10C",
    "JC KC QD AC",
    "AD 8D 10D KD",
)


def e99_dealt(scores: tuple[int, int] = (0, 0)) -> GameState:
    return dealt(E99_HANDS, recipient=2, face_up="KH", scores=scores)


def e99_playing(ladder: str | None = None) -> GameState:
    """E99 after bidding (and the given doubling calls, or all passing), ready for trick 1."""
    state = calls(e99_dealt(), E99_BIDDING)
    state = doubles(state, ladder or "3 pass, 1 pass")
    assert state.phase is Phase.PLAYING
    return state


# Project-free hands with no Baloot in any suit: in suit s, seat k holds the natural ranks
# (k + s) mod 4 and that + 4, so no seat has a run or four of a kind, and no trump K+Q pair.
PLAIN_HANDS = {
    0: "AS 10S KH 9H QD 8D JC 7C",
    1: "KS 9S QH 8H JD 7D AC 10C",
    2: "QS 8S JH 7H AD 10D KC 9C",
    3: "JS 7S AH 10H KD 9D QC 8C",
}


def refused(state: GameState, seat: object, move: object, code: str) -> None:
    """Assert ``apply`` refuses the move with ``code`` and leaves the state as it was."""
    before = copy.deepcopy(state)
    with pytest.raises(EngineError) as info:
        apply(state, seat, move)  # type: ignore[arg-type]
    assert info.value.code == code, info.value
    assert state == before


def play_out(state: GameState) -> GameState:
    """Finish the current round by always playing the first legal card."""
    while state.phase is Phase.PLAYING:
        seat = to_act(state)
        assert seat is not None
        moves = [m for m in legal_moves(state) if isinstance(m, Play)]
        state = apply(state, seat, moves[0])
    return state


def project(kind: str, cards: str) -> Project:
    return Project(ProjectKind(kind), tuple(sorted(cs(cards))))


def declare(*projects: Project) -> Declare:
    return Declare(tuple(projects))


# Seat 1 holds all eight spades; with seat 1 leading spades it takes every trick.
SWEEP_HANDS = {
    1: "AS KS QS JS 10S 9S 8S 7S",
    2: "AH KH QH JH AD KD QD JD",
    3: "10H 9H 8H 7H 10D 9D 8D 7D",
    0: "AC KC QC JC 10C 9C 8C 7C",
}
