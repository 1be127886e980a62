"""Dealing (rules.md R8, R9, E49) and the deck helper the other tests rely on."""

from __future__ import annotations

import pytest

from games.engine import new_match, start_round
from games.engine.state import Phase
from tests.engine.helpers import (
    E99_HANDS,
    calls,
    deck_for,
    doubles,
    e99_dealt,
    e99_playing,
    hand_names,
    names,
)


def _mask_of_indexes(deck: list[int], indexes: list[int]) -> int:
    out = 0
    for i in indexes:
        out |= 1 << deck[i]
    return out


def test_E49_initial_and_completion_deal_positions() -> None:
    """E49 (R8, R9): dealer 0; seat 1 gets D0-2 + D12-13, seat 2 D3-5 + D14-15, seat 3 D6-8 +
    D16-17, seat 0 D9-11 + D18-19; D20 face up; with seat 2 the recipient the stock goes
    1: D21-23, 2: D20 + D24-25, 3: D26-28, 0: D29-31."""
    deck = list(range(32))[::-1]  # any permutation; reversed so index != card value
    state = start_round(new_match(dealer=0), deck)
    initial = {1: [0, 1, 2, 12, 13], 2: [3, 4, 5, 14, 15], 3: [6, 7, 8, 16, 17],
               0: [9, 10, 11, 18, 19]}  # fmt: skip
    for seat, indexes in initial.items():
        assert state.hands[seat] == _mask_of_indexes(deck, indexes)
    assert state.face_up == deck[20]
    # E29's bidding makes seat 2 the declarer and card recipient.
    state = calls(state, "1 pass, 2 hokum, 3 pass, 0 pass, 1 pass, 2 hokum")
    assert state.contract is not None and state.contract.recipient == 2
    completion = {1: [21, 22, 23], 2: [20, 24, 25], 3: [26, 27, 28], 0: [29, 30, 31]}
    for seat, indexes in completion.items():
        assert state.hands[seat] == _mask_of_indexes(deck, initial[seat] + indexes)
        assert state.hands[seat].bit_count() == 8
    total = 0
    for hand in state.hands:
        assert total & hand == 0
        total |= hand
    assert total == (1 << 32) - 1


def test_R8_deal_starts_at_dealers_right_for_any_dealer() -> None:
    """R8: the first three cards go to next(d), whoever deals."""
    deck = list(range(32))
    for dealer in range(4):
        state = start_round(new_match(dealer=dealer), deck)
        assert state.hands[(dealer + 1) % 4] == _mask_of_indexes(deck, [0, 1, 2, 12, 13])
        assert state.hands[dealer] == _mask_of_indexes(deck, [9, 10, 11, 18, 19])
        assert all(h.bit_count() == 5 for h in state.hands)


def test_R9_ashkal_recipient_is_partner_taking_face_up_plus_two() -> None:
    """R9, R15: in Ashkal the caller's partner receives the face-up card and 2 stock cards,
    the caller receives 3 (E36: seat 3 calls Ashkal, recipient is seat 1)."""
    deck = list(range(32))
    state = start_round(new_match(dealer=0), deck)
    state = calls(state, "1 pass, 2 pass, 3 ashkal, 2 pass")
    first5 = {1: [0, 1, 2, 12, 13], 2: [3, 4, 5, 14, 15], 3: [6, 7, 8, 16, 17],
              0: [9, 10, 11, 18, 19]}  # fmt: skip
    stock = {1: [20, 21, 22], 2: [23, 24, 25], 3: [26, 27, 28], 0: [29, 30, 31]}
    for seat in range(4):
        assert state.hands[seat] == _mask_of_indexes(deck, first5[seat] + stock[seat])


def test_R9_round_two_contract_still_gives_face_up_to_recipient() -> None:
    """R9: a round-2 Sun still gives the face-up card to the declarer."""
    deck = list(range(32))
    state = start_round(new_match(dealer=0), deck)
    state = calls(state, "1 pass, 2 pass, 3 pass, 0 pass, 1 pass, 2 pass, 3 sun")
    assert state.contract is not None and state.contract.bidding_round == 2
    assert state.hands[3] & (1 << deck[20])
    assert all(h.bit_count() == 8 for h in state.hands)


def test_deck_helper_deals_the_requested_hands() -> None:
    """The helper used by E99 really yields the listed hands after R8/R9."""
    state = e99_dealt()
    assert state.face_up is not None
    state = calls(state, "1 pass, 2 hokum, 3 pass, 0 pass, 1 pass, 2 hokum")
    for seat, hand in E99_HANDS.items():
        assert hand_names(state, seat) == set(hand.split())
    state = doubles(state, "3 pass, 1 pass")
    assert state == e99_playing()
    assert state.phase is Phase.PLAYING


def test_start_round_refuses_a_bad_deck() -> None:
    """R3: a deck is 32 distinct cards."""
    with pytest.raises(ValueError):
        start_round(new_match(), list(range(31)))
    with pytest.raises(ValueError):
        start_round(new_match(), [0, *range(31)])
    deck = deck_for(E99_HANDS, recipient=2, face_up="KH")
    assert names(deck) == names(range(32))
