"""The information firewall: a bot's decision depends on its observation only.

Two real GameStates that differ only in hidden cards (swapped between two other seats so that
every void, count and public card stays true) give the seat the same observation, so with the
same rng seed each bot must make the same decision."""

from __future__ import annotations

import random
from dataclasses import replace

from games.engine import observation
from games.engine.bots import BOT_LEVELS, NormalConfig, choose_move
from games.engine.cards import KING, QUEEN, cards_of
from games.engine.state import GameState, Phase, to_act

from .states import random_states

CONFIG = NormalConfig(samples=6)


def _untouchable(state: GameState) -> int:
    """Hidden cards whose holder is public or which the state ties to a holder."""
    mask = 0
    if state.contract is not None:
        mask |= 1 << state.contract.face_up  # R9: the recipient holds it
        if state.contract.trump is not None:  # swapping K/Q of trump could move Baloot
            mask |= 1 << (state.contract.trump * 8 + KING) | 1 << (state.contract.trump * 8 + QUEEN)
    for _, projects in state.declarations:
        for p in projects:
            for c in p.cards:
                mask |= 1 << c
    return mask


def _reshuffled(state: GameState, seat: int, rng: random.Random) -> GameState | None:
    """Swap same-suit hidden cards between the two other seats that can trade."""
    others = [s for s in range(4) if s != seat]
    rng.shuffle(others)
    a, b = others[0], others[1]
    frozen = _untouchable(state)
    hands = list(state.hands)
    swaps = 0
    for x in cards_of(hands[a] & ~frozen):
        for y in cards_of(hands[b] & ~frozen):
            if x >> 3 == y >> 3 and hands[a] >> x & 1 and hands[b] >> y & 1:
                hands[a] ^= 1 << x | 1 << y
                hands[b] ^= 1 << x | 1 << y
                swaps += 1
                break
    if not swaps:
        return None
    return replace(state, hands=(hands[0], hands[1], hands[2], hands[3]))


def test_same_observation_same_decision() -> None:
    rng = random.Random(3)
    compared = dict.fromkeys(BOT_LEVELS, 0)
    phases = set()
    for i, state in enumerate(random_states(3, 25)):
        seat = to_act(state)
        other = _reshuffled(state, seat, rng)
        if other is None:
            continue
        assert other.hands != state.hands
        obs = observation(state, seat)
        assert observation(other, seat) == obs  # the precondition of the property
        for level in BOT_LEVELS:
            if level == "normal" and state.phase is Phase.PLAYING and i % 3:
                continue  # keep the test quick: a third of the play positions is plenty
            first = choose_move(level, obs, random.Random(i), normal_config=CONFIG)
            second = choose_move(
                level, observation(other, seat), random.Random(i), normal_config=CONFIG
            )
            assert first == second, (level, state.phase)
            compared[level] += 1
        phases.add(state.phase)
    assert min(compared.values()) > 50
    assert {Phase.BIDDING, Phase.DOUBLING, Phase.PLAYING} <= phases


def test_normal_is_deterministic_with_fixed_samples() -> None:
    for state in random_states(9, 3):
        if state.phase is Phase.PLAYING and len(state.tricks) == 2:
            seat = to_act(state)
            obs = observation(state, seat)
            moves = {
                choose_move("normal", obs, random.Random(4), normal_config=CONFIG) for _ in range(3)
            }
            assert len(moves) == 1
            return
    raise AssertionError("no position found")
