"""What compulsory trumping proves (rules-saudi.md S5-S7) is kept out of the deals of every level
that deals hidden cards: the normal bot, and the hard bot whose search the analysis reads."""

from __future__ import annotations

import random

import pytest

from games.engine import GAMERULES, SAUDI, observation
from games.engine.bots import HardConfig, NormalConfig, choose_move, hard, normal
from games.engine.bots.determinize import sample_hands
from games.engine.bots.knowledge import Knowledge, compulsory_exclusions, infer
from games.engine.moves import Play
from games.engine.rules import to_act
from games.engine.state import Phase

from .states import bot_match_states

LEVELS = {"normal": normal, "hard": hard}


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_no_deal_gives_a_seat_a_card_its_trumping_ruled_out(
    level: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = LEVELS[level]
    drawn: list[tuple[int, int, int, int]] = []
    real = sample_hands

    def recording(knowledge: Knowledge, rng: random.Random) -> tuple[int, int, int, int]:
        hands = real(knowledge, rng)
        drawn.append(hands)
        return hands

    monkeypatch.setattr(module, "sample_hands", recording)
    checked = 0
    for seed in range(3):
        for state in bot_match_states(SAUDI, seed):
            seat = to_act(state)
            if state.phase is not Phase.PLAYING or seat is None:
                continue
            obs = observation(state, seat)
            proven = compulsory_exclusions(obs, SAUDI)
            if not any(proven) or sum(isinstance(m, Play) for m in obs.legal_moves) < 2:
                continue
            drawn.clear()
            choose_move(
                level,
                obs,
                random.Random(checked),
                normal_config=NormalConfig(samples=8),
                hard_config=HardConfig(samples=4, bid_samples=8, double_samples=4),
                ruleset=SAUDI,
            )
            if not drawn:
                continue  # decided without dealing (a provable Sawa, cards all known)
            for hands in drawn:
                for other in range(4):
                    assert not hands[other] & proven[other], (seed, other)
            checked += 1
    assert checked >= 20


def test_the_facts_are_saudi_only() -> None:
    """The same cards prove nothing under R26 (free discards), so gamerules deals keep them."""
    seen = 0
    for state in bot_match_states(SAUDI, 0):
        if state.phase is not Phase.PLAYING:
            continue
        obs = observation(state, 0)
        proven = compulsory_exclusions(obs, SAUDI)
        if not any(proven):
            continue
        assert compulsory_exclusions(obs, GAMERULES) == (0, 0, 0, 0)
        saudi, free = infer(obs, SAUDI), infer(obs, GAMERULES)
        for other in range(1, 4):
            assert saudi.excluded[other] == free.excluded[other] | (
                proven[other] & ~free.known[other]
            )
        seen += 1
    assert seen > 0
