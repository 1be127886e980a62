"""The rule helpers the engine and the bots share (R6, R27, R28, R32, R33-R43, R25)."""

from __future__ import annotations

import random
from dataclasses import replace

from games.engine import GAMERULES, Phase, apply, legal_moves, new_match, start_round, to_act
from games.engine.play import close_trick
from games.engine.projects import baloot_holder, baloot_pair
from games.engine.rules import playing_state, score_state
from games.engine.selfplay import shuffled_deck
from games.engine.state import GameState, Trick

from .helpers import c, mask


def test_baloot_holder() -> None:
    # R32: one player holds both the trump K and Q; split between partners is no Baloot.
    spades = 0
    assert baloot_pair(spades) == mask("KS QS")
    hands = [mask("AH"), mask("7D"), mask("KS QS JS"), mask("8C")]
    assert baloot_holder(hands, spades) == 2
    assert baloot_holder([mask("KS"), 0, mask("QS"), 0], spades) is None
    assert baloot_holder(hands, None) is None  # Sun: no trump, no Baloot


def test_close_trick() -> None:
    # R27: the trump wins; R5 abnat in Hokum spades; R6: trick 8 adds 10.
    cards = (c("AH"), c("7S"), c("10H"), c("AD"))
    assert close_trick(cards, 1, 0, 0) == (2, 11 + 0 + 10 + 11)
    assert close_trick(cards, 1, 0, 7) == (2, 42)
    # Sun: the highest of the led suit; off-suit cards never win.
    assert close_trick((c("KH"), c("AD"), c("10H"), c("AC")), 3, None, 3) == (1, 4 + 11 + 10 + 11)


def _round_states(seed: int) -> list[GameState]:
    rng = random.Random(seed)
    state = start_round(new_match(dealer=seed % 4, target=10_000), shuffled_deck(rng))
    states = [state]
    while state.phase is not Phase.DEAL:
        seat = to_act(state)
        assert seat is not None
        state = apply(state, seat, rng.choice(legal_moves(state)))
        states.append(state)
    return states


def test_score_state_is_the_round_result() -> None:
    scored = 0
    for seed in range(60):
        states = _round_states(seed)
        last = states[-1].history[-1]
        if last.contract is None:
            continue  # a redeal (R19) has no result to score
        before = states[-2]  # the 32nd card still to play
        assert score_state(before, last.result.abnat, _counts(last.tricks)) == last.result
        scored += 1
    assert scored > 30


def _counts(tricks: tuple[Trick, ...]) -> tuple[int, int]:
    counts = [0, 0]
    for trick in tricks:
        counts[trick.winner % 2] += 1
    return (counts[0], counts[1])


def test_playing_state_builds_the_state_play_starts_from() -> None:
    built = 0
    for seed in range(40):
        for state in _round_states(seed):
            if state.phase is Phase.PLAYING and not state.trick and not state.tricks:
                assert state.contract is not None
                rebuilt = playing_state(
                    ruleset=GAMERULES,
                    contract=state.contract,
                    hands=state.hands,
                    dealer=state.dealer,
                    scores=state.scores,
                    target=state.target,
                    round_no=state.round_no,
                    ladder=state.ladder,
                    baloot_seat=state.baloot_seat,
                    actions=state.actions,
                )
                assert rebuilt == replace(state, deck=())  # R25: the declarer leads
                built += 1
                break
    assert built > 20
