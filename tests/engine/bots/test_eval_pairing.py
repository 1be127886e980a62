"""bench.bots_eval: both plays of a duplicate deal see the same decks, and self-play goes on
past a match that a Gahwa ended."""

from __future__ import annotations

import pytest

from bench import bots_eval
from bench.bots_eval import Setup, duplicate_round, self_play
from games.engine.bots import HardConfig, NormalConfig
from games.engine.moves import Double, DoubleCall, Move
from games.engine.state import GameState, RoundStatus, legal_moves

# Two levels that bid differently, so one table sometimes passes out a deck the other plays.
SETUP = Setup(
    a="easy",
    b="normal",
    normal=NormalConfig(samples=2, bid_samples=8),
    hard=HardConfig(samples=2),
    seed=3,
)
# Random bots climb the doubling ladder to Gahwa now and then.
RANDOM = Setup(a="random", b="random", normal=SETUP.normal, hard=SETUP.hard, seed=3)


def test_both_plays_of_a_deal_are_dealt_the_same_decks(monkeypatch: pytest.MonkeyPatch) -> None:
    dealt: list[tuple[int, ...]] = []
    real = bots_eval._play_round

    def recording(state: GameState, deck: list[int], *rest: object) -> GameState:
        dealt.append(tuple(deck))
        return real(state, deck, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(bots_eval, "_play_round", recording)
    mixed = redealt = 0
    for index in range(60):
        dealt.clear()
        result = duplicate_round((SETUP, index))
        # Deck by deck, the two seatings are dealt in turn: the same deck each time.
        assert len(dealt) == 2 * result.decks
        assert dealt[0::2] == dealt[1::2]
        assert len(set(dealt[0::2])) == result.decks  # a fresh deck after each pass-out
        for log in result.logs:
            assert log.status is RoundStatus.COMPLETE and tuple(log.deck) == dealt[-1]
        mixed += result.mixed
        redealt += result.decks > 1
        if result.mixed:  # the table that passed the last deck out scored 0-0 and logged none
            assert len(result.logs) == 1
    # Decks passed out at one table only and at both: both cases are covered.
    assert mixed and redealt


def test_self_play_goes_on_after_a_gahwa_ends_the_match(monkeypatch: pytest.MonkeyPatch) -> None:
    # Bots that call Gahwa whenever they may: R24, that round decides the match. The rates
    # keep counting rounds, in a new match.
    real = bots_eval._move

    def gahwa_first(setup: Setup, level: str, state: GameState, seat: int, rng: object) -> Move:
        for move in legal_moves(state):
            if isinstance(move, Double) and move.call is DoubleCall.GAHWA:
                return move
            if isinstance(move, Double) and move.call is not DoubleCall.PASS:
                return move  # climb towards it
        return real(setup, level, state, seat, rng)  # type: ignore[arg-type]

    monkeypatch.setattr(bots_eval, "_move", gahwa_first)
    rates = self_play((RANDOM, "random", 0, 60))
    assert rates.rounds == 60
    assert rates.doubled > 0
