"""bench.bots_eval: both plays of a duplicate deal see the same decks, and self-play goes on
past a match that a Gahwa ended."""

from __future__ import annotations

import pytest

from bench import bots_eval
from bench.bots_eval import Setup, Side, duplicate_round, self_play
from games.engine.bots import HardConfig, NormalConfig
from games.engine.moves import Double, DoubleCall, Move
from games.engine.rules import legal_moves
from games.engine.state import GameState, RoundStatus

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


@pytest.mark.slow
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

    def gahwa_first(setup: Setup, side: Side, state: GameState, seat: int, rng: object) -> Move:
        for move in legal_moves(state):
            if isinstance(move, Double) and move.call is DoubleCall.GAHWA:
                return move
            if isinstance(move, Double) and move.call is not DoubleCall.PASS:
                return move  # climb towards it
        return real(setup, side, state, seat, rng)  # type: ignore[arg-type]

    monkeypatch.setattr(bots_eval, "_move", gahwa_first)
    rates = self_play((RANDOM, "random", 0, 60))
    assert rates.rounds == 60
    assert rates.doubled > 0


def test_b_plays_on_its_own_hard_settings_in_both_seatings(monkeypatch: pytest.MonkeyPatch) -> None:
    # hard against a variant of hard: each side's seats decide with that side's settings,
    # whichever team it sits on.
    setup = Setup(
        a="hard",
        b="hard",
        normal=SETUP.normal,
        hard=HardConfig(samples=1, bid_samples=2, double_samples=2, pass_margin=3.0),
        seed=3,
        b_hard=HardConfig(samples=1, bid_samples=2, double_samples=2, pass_margin=0.0),
    )
    seatings: list[tuple[float, float]] = []  # (team 0's, team 1's pass margin) per round
    decisions: list[tuple[tuple[float, float], int, float]] = []
    real_round, real_move = bots_eval._play_round, bots_eval._move

    def recording_round(
        state: GameState, deck: list[int], sides: tuple[Side, Side], *rest: object
    ) -> GameState:
        seatings.append((sides[0].hard.pass_margin, sides[1].hard.pass_margin))
        return real_round(state, deck, sides, *rest)  # type: ignore[arg-type]

    def recording_move(setup: Setup, side: Side, state: GameState, seat: int, rng: object) -> Move:
        decisions.append((seatings[-1], seat % 2, side.hard.pass_margin))
        return real_move(setup, side, state, seat, rng)  # type: ignore[arg-type]

    monkeypatch.setattr(bots_eval, "_play_round", recording_round)
    monkeypatch.setattr(bots_eval, "_move", recording_move)
    duplicate_round((setup, 0))
    # A (margin 3) on team 0 first, then on team 1; each seat decided on its side's settings.
    assert seatings[:2] == [(3.0, 0.0), (0.0, 3.0)]
    assert all(margins[team] == margin for margins, team, margin in decisions)
    assert {(margins, team) for margins, team, _ in decisions} == {
        (seating, team) for seating in seatings[:2] for team in (0, 1)
    }
