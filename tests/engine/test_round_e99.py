"""E99 (rules.md 6.11): a complete Hokum round played move by move through ``apply``."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.engine import apply, legal_moves, observation, to_act
from games.engine.bidding import Ladder, Mode
from games.engine.cards import parse_suit
from games.engine.state import GameState, Phase, RoundStatus
from tests.engine.helpers import (
    E99_BIDDING,
    E99_HANDS,
    E99_TRICKS,
    calls,
    e99_dealt,
    e99_playing,
    hand_names,
    play,
    plays,
    refused,
)

# (winner, abnat) per trick, from the E99 table.
E99_RESULTS = [(0, 34), (0, 21), (2, 23), (2, 4), (2, 9), (2, 16), (1, 20), (1, 35)]
E99_LEADERS = [2, 0, 0, 2, 2, 2, 2, 1]


def play_e99(state: GameState) -> GameState:
    """Play E99's eight tricks, checking every card is legal (R26) and each trick's result."""
    for number, trick in enumerate(E99_TRICKS):
        assert state.leader == E99_LEADERS[number]
        for card in trick.split():
            assert play(card) in legal_moves(state), (number + 1, card)
            seat = to_act(state)
            assert seat is not None
            state = apply(state, seat, play(card))
        if number < 7:
            done = state.tricks[-1]
            assert (done.winner, done.abnat) == E99_RESULTS[number], number + 1
            assert done.leader == E99_LEADERS[number]
    return state


def test_E99_bidding_and_hands() -> None:
    """E99 (R12, R13, R9, R32): Hokum hearts by 2, the listed hands, team A holds Baloot."""
    state = calls(e99_dealt(), E99_BIDDING)
    contract = state.contract
    assert contract is not None
    assert (contract.mode, contract.trump, contract.declarer) == (Mode.HOKUM, parse_suit("H"), 2)
    for seat, hand in E99_HANDS.items():
        assert hand_names(state, seat) == set(hand.split())
    assert state.baloot_seat == 2


def test_E99_hokum_round_13_5() -> None:
    """E99 (R26-R28, R32, R34, R36, R37, R41): tricks as listed; A 107 (6 tricks), B 55 (2);
    points 11/5; bidder succeeds; round score A 13 (11 + Baloot 2), B 5."""
    state = play_e99(e99_playing())
    assert state.phase is Phase.DEAL
    log = state.history[-1]
    assert log.status is RoundStatus.COMPLETE
    assert [(t.winner, t.abnat) for t in log.tricks] == E99_RESULTS
    result = log.result
    assert result.abnat == (107, 55)
    assert sum(result.abnat) == 162
    assert result.card_points == (11, 5)
    assert result.baloot == (2,)
    assert result.kaboot is None
    assert result.bidder_team == 0 and not result.bidder_failed
    assert result.points == (13, 5)
    assert state.scores == (13, 5)
    assert log.multiplier == 1 and not log.locked


def test_E99_trick_counts_and_baloot_announced_with_second_card() -> None:
    """E99 (R32): Baloot is announced when seat 2 plays QH in trick 6, not at KH in trick 4."""
    state = e99_playing()
    for trick in E99_TRICKS[:5]:
        state = plays(state, trick)
    assert state.trick_counts == (5, 0)  # tricks 1-5 to seats 0, 0, 2, 2, 2
    assert observation(state, 1).baloot == ()
    state = plays(state, "QH")
    assert observation(state, 1).baloot == (2,)


def test_E99_at_x3_open_scores_50_0() -> None:
    """E99 (R40, R41): the same tricks at final x3 (open): A = 16 x 3 + 2 = 50, B = 0."""
    state = e99_playing("3 pass, 1 double, 2 triple, 1 pass")
    assert state.multiplier == 3 and not state.locked
    state = play_e99(state)
    assert state.history[-1].result.points == (50, 0)
    assert state.history[-1].multiplier == 3


@pytest.mark.parametrize(
    ("ladder", "multiplier"),
    [("3 pass, 1 double, 2 pass", 2), ("3 pass, 1 double, 2 triple, 1 four, 2 pass", 4)],
)
def test_E99_locked_at_x2_and_x4_forbids_the_trump_leads(ladder: str, multiplier: int) -> None:
    """E99 (R23): at x2 or x4 seat 2's trump leads 9H (trick 1) and KH (trick 4) are illegal
    because seat 2 holds non-trumps."""
    state = e99_playing(ladder)
    assert state.multiplier == multiplier and state.locked
    refused(state, 2, play("9H"), "locked_trump_lead")
    assert play("9H") not in legal_moves(state)
    # Trick 4: take the x1 position after trick 3 and lock it as this ladder did.
    open_state = e99_playing()
    for trick in E99_TRICKS[:3]:
        open_state = plays(open_state, trick)
    assert to_act(open_state) == 2
    assert play("KH") in legal_moves(open_state)
    locked = replace(open_state, ladder=Ladder(rung=None, queue=(), multiplier=multiplier))
    assert locked.locked
    refused(locked, 2, play("KH"), "locked_trump_lead")
    refused(locked, 2, play("QH"), "locked_trump_lead")
    assert {m.card for m in legal_moves(locked)} == {  # type: ignore[union-attr]
        play(x).card for x in ("KS", "8D", "JC")
    }
