"""The doubling ladder, locking and Gahwa (rules.md R21-R24, examples E51-E53).

E99's bidding makes seat 2 (team A) the Hokum declarer, so the opponents are asked 3, then 1.
"""

from __future__ import annotations

import pytest

from games.engine import legal_moves, to_act
from games.engine.bidding import Mode
from games.engine.state import GameState, Phase
from tests.engine.helpers import E99_BIDDING, bid, calls, dbl, doubles, e99_dealt, refused


def hokum_by_2() -> GameState:
    state = calls(e99_dealt(), E99_BIDDING)
    assert state.phase is Phase.DOUBLING
    return state


def sun_by_2(scores: tuple[int, int]) -> GameState:
    """Sun declared by seat 2 (team A) with the given match scores at the start of the hand."""
    state = calls(e99_dealt(scores=scores), "1 pass, 2 sun, 1 pass")
    assert state.contract is not None and state.contract.mode is Mode.SUN
    assert state.contract.declarer == 2
    return state


def legal_doubles(state: GameState) -> set[str]:
    return {move.call.value for move in legal_moves(state)}  # type: ignore[union-attr]


def test_E51_full_ladder_levels_and_locks() -> None:
    """E51 (R21, R23): 3 PASS, 1 DOUBLE -> x2 locked; 2 TRIPLE -> x3 open; 1 FOUR -> x4
    locked; 2 GAHWA -> Gahwa, not locked."""
    state = hokum_by_2()
    assert to_act(state) == 3
    state = doubles(state, "3 pass, 1 double")
    assert state.ladder is not None
    assert (state.multiplier, state.ladder.doubler, state.locked) == (2, 1, True)
    assert to_act(state) == 2
    state = doubles(state, "2 triple")
    assert (state.multiplier, state.locked) == (3, False)
    assert to_act(state) == 1
    state = doubles(state, "1 four")
    assert (state.multiplier, state.locked) == (4, True)
    assert to_act(state) == 2
    gahwa = doubles(state, "2 gahwa")
    assert (gahwa.multiplier, gahwa.gahwa, gahwa.locked) == (4, True, False)
    assert gahwa.phase is Phase.PLAYING
    # "If 2 passes at step 4, the final level is x4 and the round is locked."
    passed = doubles(state, "2 pass")
    assert (passed.multiplier, passed.gahwa, passed.locked) == (4, False, True)
    assert passed.phase is Phase.PLAYING


def test_E52_only_the_named_seat_may_climb() -> None:
    """E52 (R21): seat 0 (declarer's partner) never triples or Gahwas; seat 3 may not FOUR
    since 1 doubled; if 3 and 1 both pass, m = 1 and play starts."""
    state = doubles(hokum_by_2(), "3 pass, 1 double")
    refused(state, 0, dbl("triple"), "not_your_turn")
    refused(state, 1, dbl("triple"), "not_your_turn")
    state = doubles(state, "2 triple")
    refused(state, 3, dbl("four"), "not_your_turn")
    refused(state, 0, dbl("four"), "not_your_turn")
    state = doubles(state, "1 four")
    refused(state, 0, dbl("gahwa"), "not_your_turn")

    none = doubles(hokum_by_2(), "3 pass, 1 pass")
    assert (none.multiplier, none.locked, none.phase) == (1, False, Phase.PLAYING)
    assert to_act(none) == 2  # R25: the declarer leads


@pytest.mark.parametrize(
    ("scores", "allowed"),
    [((101, 99), True), ((100, 50), False), ((130, 100), False), ((90, 80), False),
     ((90, 120), False)],
)  # fmt: skip
def test_E53_sun_doubling_needs_over_100_against_under_100(
    scores: tuple[int, int], allowed: bool
) -> None:
    """E53 (R22): a Sun by team A may be doubled only at A > 100 and B < 100."""
    state = sun_by_2(scores)
    assert (state.phase is Phase.DOUBLING) is allowed
    if not allowed:
        assert state.multiplier == 1
        assert to_act(state) == 2
        refused(state, 3, dbl("double"), "not_your_turn")
        refused(state, 2, dbl("pass"), "illegal_call")


def test_R22_eligible_sun_allows_the_whole_ladder_and_is_never_locked() -> None:
    """R22, R23: an eligible Sun may go x2, x3, x4 and Gahwa; the lock has no effect in Sun."""
    state = sun_by_2((101, 99))
    state = doubles(state, "3 double")
    assert (state.multiplier, state.locked) == (2, False)
    state = doubles(state, "2 triple, 3 four")
    assert (state.multiplier, state.locked) == (4, False)
    state = doubles(state, "2 gahwa")
    assert state.gahwa and state.phase is Phase.PLAYING


def test_R22_hokum_has_no_score_condition() -> None:
    """R22: a Hokum may be doubled whatever the scores."""
    state = calls(e99_dealt(scores=(40, 140)), E99_BIDDING)
    assert state.phase is Phase.DOUBLING


def test_R21_ladder_calls_open_at_each_step() -> None:
    """R21: each step offers exactly pass and its own rung; other rungs are illegal_call."""
    state = hokum_by_2()
    assert legal_doubles(state) == {"pass", "double"}
    refused(state, 3, dbl("triple"), "illegal_call")
    refused(state, 3, dbl("gahwa"), "illegal_call")
    state = doubles(state, "3 double")  # the first opponent may double at once
    assert state.ladder is not None and state.ladder.doubler == 3
    assert legal_doubles(state) == {"pass", "triple"}
    refused(state, 2, dbl("double"), "illegal_call")
    state = doubles(state, "2 triple")
    assert to_act(state) == 3  # the doubler, not the other opponent
    assert legal_doubles(state) == {"pass", "four"}
    state = doubles(state, "3 four")
    assert legal_doubles(state) == {"pass", "gahwa"}


def test_R21_declarer_pass_at_triple_leaves_x2() -> None:
    """R21: TRIPLE passed -> final m = 2; FOUR passed -> final m = 3."""
    two = doubles(hokum_by_2(), "3 pass, 1 double, 2 pass")
    assert (two.multiplier, two.phase, two.locked) == (2, Phase.PLAYING, True)
    three = doubles(hokum_by_2(), "3 pass, 1 double, 2 triple, 1 pass")
    assert (three.multiplier, three.phase, three.locked) == (3, Phase.PLAYING, False)


def test_R21_no_rebid_once_doubled() -> None:
    """R21: a contract cannot be re-bid once doubled: bids are refused in the ladder."""
    state = doubles(hokum_by_2(), "3 pass, 1 double")
    refused(state, 2, bid("sun"), "illegal_call")
