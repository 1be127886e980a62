"""Whole games with bots, and the normal bot's endgame search against brute force."""

from __future__ import annotations

import random

from games.engine import Phase, Play, apply, new_match, observation, outcome, start_round
from games.engine.bots import NormalConfig, choose_move
from games.engine.bots.determinize import determinize
from games.engine.bots.simulate import Playout
from games.engine.cards import cards_of
from games.engine.play import legal_play_mask
from games.engine.rules import legal_moves
from games.engine.state import GameState

from .states import random_states, seat_of


def _play_match(levels: tuple[str, str, str, str], seed: int, max_rounds: int = 200) -> GameState:
    rng = random.Random(seed)
    bots = [random.Random(seed * 4 + s) for s in range(4)]
    state = new_match(dealer=seed % 4)
    for _ in range(max_rounds):
        if state.phase is Phase.FINISHED:
            break
        deck = list(range(32))
        rng.shuffle(deck)
        state = start_round(state, deck)
        while state.phase not in (Phase.DEAL, Phase.FINISHED):
            seat = seat_of(state)
            move = choose_move(
                levels[seat],
                observation(state, seat),
                bots[seat],
                normal_config=NormalConfig(samples=2),
            )
            state = apply(state, seat, move)
    return state


def test_four_easy_bots_finish_a_match() -> None:
    state = _play_match(("easy",) * 4, seed=1)
    result = outcome(state)
    assert result is not None
    assert max(result.scores) >= 152 or result.reason == "gahwa"
    # Somebody made contracts: easy bots do bid.
    assert any(log.contract is not None for log in state.history)


def test_mixed_table_finishes_a_match() -> None:
    state = _play_match(("normal", "random", "easy", "random"), seed=2)
    assert outcome(state) is not None


def _brute(state: GameState, team: int, playout: Playout) -> float:
    """Plain minimax over the engine's apply: the reference for the alpha-beta search."""
    if state.phase is not Phase.PLAYING:
        raise AssertionError("brute force runs inside one round")
    if len(state.tricks) == 8:
        return playout.margin(state.abnat, state.trick_counts)
    seat = seat_of(state)
    values = []
    for move in legal_moves(state):
        nxt = apply(state, seat, move)
        if nxt.phase is not Phase.PLAYING:  # the round ended: score from the last trick
            tricks = nxt.history[-1].tricks
            abnat = [0, 0]
            counts = [0, 0]
            for t in tricks:
                abnat[t.winner % 2] += t.abnat
                counts[t.winner % 2] += 1
            values.append(playout.margin((abnat[0], abnat[1]), (counts[0], counts[1])))
        else:
            values.append(_brute(nxt, team, playout))
    return max(values) if seat % 2 == team else min(values)


def test_endgame_search_matches_brute_force() -> None:
    rng = random.Random(8)
    compared = 0
    for state in random_states(8, 60):
        if state.phase is not Phase.PLAYING or len(state.tricks) != 6:
            continue
        seat = seat_of(state)
        det = determinize(observation(state, seat), rng)
        team = seat % 2
        playout = Playout(det, team)
        contract = det.contract
        assert contract is not None
        legal = legal_play_mask(det.hands[seat], det.trick, contract.trump, det.locked)
        for card in cards_of(legal):
            reference = _brute(apply(det, seat, Play(card)), team, playout)
            assert playout.evaluate(card) == reference
            compared += 1
    assert compared > 20
