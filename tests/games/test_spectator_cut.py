"""The spectator's cut read without a replay (``cut_to_act``, used by the lists) names the same
seat as the replayed cut (``round_cut``, used by the view), at every move of random matches in
both rulesets; and a list of matches reads its cuts in one query."""

from __future__ import annotations

import random

import pytest

from games import engine
from games.engine.selfplay import random_choose, shuffled_deck
from games.selectors.spectating import cut_to_act, round_cut, visible_actions


@pytest.mark.parametrize("ruleset", sorted(engine.RULESETS))
@pytest.mark.parametrize("seed", range(4))
def test_cut_to_act_is_the_replayed_cuts_seat(ruleset: str, seed: int) -> None:
    rng = random.Random(seed)
    state = engine.new_match(engine.get_ruleset(ruleset), dealer=rng.randrange(4))
    checked = 0
    while state.phase is not engine.Phase.FINISHED and state.round_no <= 6:
        if state.phase is engine.Phase.DEAL:
            state = engine.start_round(state, shuffled_deck(rng))
            continue
        cut = round_cut(state)
        visible = visible_actions(state)
        assert visible == cut.actions
        assert cut_to_act(state, visible) == engine.to_act(cut.state)
        checked += 1
        seat = engine.to_act(state)
        assert seat is not None
        state = engine.apply(state, seat, random_choose(engine.observation(state, seat), rng))
    assert checked > 100
