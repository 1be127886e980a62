"""Match totals and the end of the match (rules.md R2, R19, R24, R42, R43; E95, E101, E102)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.engine import new_match, outcome, start_round, to_act
from games.engine.rules import end_round
from games.engine.scoring import REDEAL_RESULT
from games.engine.state import GameState, Phase, draft_of, state_of
from tests.engine.helpers import (
    E99_BIDDING,
    E99_TRICKS,
    SWEEP_HANDS,
    calls,
    dealt,
    doubles,
    e99_dealt,
    play,
    play_out,
    plays,
    refused,
)


def e99_from(scores: tuple[int, int], ladder: str = "3 pass, 1 pass") -> GameState:
    """E99 (13/5 at x1) played from the given match scores."""
    state = doubles(calls(e99_dealt(scores=scores), E99_BIDDING), ladder)
    for trick in E99_TRICKS:
        state = plays(state, trick)
    return state


def after_round(scores: tuple[int, int], points: tuple[int, int]) -> GameState:
    """Close a round worth ``points`` from ``scores`` (the arithmetic of R42 alone)."""
    fields = draft_of(replace(new_match(scores=scores), phase=Phase.PLAYING))
    end_round(fields, replace(REDEAL_RESULT, points=points))  # changes the fields in place
    return state_of(fields)


def test_E101_first_to_152_wins() -> None:
    """E101 (R42): A 140, B 120; the round gives A 12, B 4 -> A 152, B 124 -> A wins."""
    state = after_round((140, 120), (12, 4))
    assert state.scores == (152, 124)
    assert state.phase is Phase.FINISHED and state.winner == 0


def test_E102_both_over_target_higher_total_wins() -> None:
    """E102 (R42): A 145 + 9 = 154, B 150 + 7 = 157 -> B wins."""
    state = after_round((145, 150), (9, 7))
    assert state.scores == (154, 157)
    assert state.winner == 1
    result = outcome(state)
    assert result is not None
    assert (result.winner, result.reason, result.scores) == (1, "target_reached", (154, 157))


def test_R42_match_end_through_play() -> None:
    """R42: E99 (13/5) from 140/120 ends the match at 153/125 for A; apply is then refused."""
    state = e99_from((140, 120))
    assert state.scores == (153, 125)
    assert state.phase is Phase.FINISHED and state.winner == 0
    assert to_act(state) is None
    with pytest.raises(ValueError):
        start_round(state, list(range(32)))


def test_R42_below_target_the_match_goes_on() -> None:
    """R42: round scores add to the totals; under 152 nothing ends."""
    state = e99_from((100, 140))
    assert state.scores == (113, 145)
    assert (state.phase, state.winner, outcome(state)) == (Phase.DEAL, None, None)


def test_R42_equal_totals_over_target_play_on() -> None:
    """R42: both at or over 152 and exactly equal -> another hand."""
    state = e99_from((140, 148))
    assert state.scores == (153, 153)
    assert state.phase is Phase.DEAL and state.winner is None
    assert after_round((150, 150), (2, 2)).winner is None


def test_R19_R42_redeal_ends_nothing() -> None:
    """R19, R42: a redeal changes no score and ends nothing, even with a team at the target
    (e.g. scores carried into a record)."""
    state = start_round(new_match(scores=(155, 120)), list(range(32)))
    state = calls(state, ", ".join(f"{s} pass" for s in (1, 2, 3, 0, 1, 2, 3, 0)))
    assert state.scores == (155, 120)
    assert state.phase is Phase.DEAL and state.winner is None
    assert outcome(state) is None


def test_R2_deal_moves_to_dealers_right_after_a_round() -> None:
    """R2: after E99 (dealer 0) the next dealer is 1, so seat 2 bids first."""
    state = e99_from((0, 0))
    assert state.dealer == 1
    assert state.history[-1].dealer == 0
    state = start_round(state, list(range(32)))
    assert to_act(state) == 2
    assert state.round_no == 2


def test_E95_gahwa_bidder_wins_the_match_at_once() -> None:
    """E95 (R24, R43): Gahwa declared; Hokum; A (bidder) 107/55 succeeds -> A wins the match
    at once, whatever the scores; the round adds no points."""
    state = e99_from((0, 120), "3 pass, 1 double, 2 triple, 1 four, 2 gahwa")
    assert state.phase is Phase.FINISHED and state.winner == 0
    assert state.scores == (0, 120)
    log = state.history[-1]
    assert log.gahwa and log.result.gahwa_winner == 0 and log.result.points == (0, 0)
    result = outcome(state)
    assert result is not None
    assert (result.winner, result.reason) == (0, "gahwa")


def test_R43_gahwa_kaboot_team_wins_the_match() -> None:
    """R43: in a Gahwa round the kaboot team wins the match, whatever the scores (seat 1, all
    spades, bids Sun with B 120 / A 50 so the ladder is open, and sweeps)."""
    state = calls(dealt(SWEEP_HANDS, recipient=1, face_up="7S", scores=(50, 120)), "1 sun")
    state = doubles(state, "2 double, 1 triple, 2 four, 1 gahwa")
    state = play_out(state)
    assert state.history[-1].result.kaboot == 1
    assert (state.phase, state.winner, state.scores) == (Phase.FINISHED, 1, (50, 120))


def test_R43_gahwa_winner_follows_bidder_success() -> None:
    """R43: without kaboot, the bidding team wins a Gahwa match iff it succeeded (R36)."""
    state = calls(dealt(SWEEP_HANDS, recipient=2, face_up="AH"), E99_BIDDING)
    state = doubles(state, "3 pass, 1 double, 2 triple, 1 four, 2 gahwa")
    state = play_out(state)
    result = state.history[-1].result
    assert result.kaboot is None
    assert state.winner == (1 if result.bidder_failed else 0)
    assert state.phase is Phase.FINISHED and state.scores == (0, 0)


def test_finished_match_refuses_moves_as_malformed() -> None:
    """record-format: an action after its round (or match) is over is malformed."""
    state = e99_from((140, 120))
    refused(state, 2, play("9H"), "malformed")
