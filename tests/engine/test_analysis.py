"""games.engine.analysis: every decision valued from its seat's own observation, the same
twice, never reading a card the seat could not see; and the analysis tells the easy bot from
the normal one (easy loses more per decision)."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from bench.analysis_levels import interval, level_losses
from games.engine import GAMERULES, analysis, observation
from games.engine.bots.auction import call_values
from games.engine.bots.hard import play_values
from games.engine.cards import cards_of
from games.engine.moves import Bid, Play
from games.engine.observation import Observation
from games.engine.rules import apply, legal_moves, new_match, start_round, to_act
from games.engine.selfplay import load_bot, play_match, shuffled_deck
from games.engine.state import GameState, Phase

from .bots.test_firewall import cards_in, knowable


def _a_match(seed: int = 5) -> tuple[GameState, list[tuple[Any, Any]]]:
    easy = load_bot("easy")
    state = play_match(random.Random(seed), [easy] * 4, target=60)
    return state, [(log.deck, log.actions) for log in state.history]


def test_each_decision_is_a_choice_among_several_with_the_best_valued_highest() -> None:
    state, rounds = _a_match()
    found = analysis.analyse_match(
        GAMERULES, rounds, seed="t", dealer=state.history[0].dealer, target=60
    )
    assert found
    kinds = {type(d.chosen) for d in found}
    assert kinds == {Bid, Play}
    for d in found:
        assert d.options >= 2
        assert d.best_value >= d.chosen_value
        assert d.loss == pytest.approx(d.best_value - d.chosen_value)
        assert 0 <= d.accuracy <= 1
        assert (d.loss == 0) == (d.best == d.chosen)  # a move as good as the best is the best
    # Every card play with a choice is there: count them from the log itself.
    plays = 0
    replayed = new_match(GAMERULES, dealer=state.history[0].dealer, target=60)
    for deck, actions in rounds:
        replayed = start_round(replayed, tuple(deck))
        for seat, move in actions:
            if isinstance(move, Play) and replayed.phase is Phase.PLAYING:
                plays += sum(isinstance(m, Play) for m in legal_moves(replayed)) >= 2
            replayed = apply(replayed, seat, move)
    assert sum(isinstance(d.chosen, Play) for d in found) == plays


def test_the_same_match_analysed_twice_gives_the_same_decisions_and_values() -> None:
    state, rounds = _a_match()
    dealer = state.history[0].dealer
    first = analysis.analyse_match(GAMERULES, rounds, seed="m-1", dealer=dealer, target=60)
    again = analysis.analyse_match(GAMERULES, rounds, seed="m-1", dealer=dealer, target=60)
    assert first == again
    other = analysis.analyse_match(GAMERULES, rounds, seed="m-2", dealer=dealer, target=60)
    assert [d.chosen_value for d in other] != [d.chosen_value for d in first]  # the seed counts


def test_the_search_is_handed_the_seats_observation_and_nothing_more(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every valuation receives an Observation holding only cards its seat may know (the
    firewall's own rule), and no GameState anywhere in its arguments. The one exception is
    the moderators' second valuation of a card (``partner_loss``), which is handed, beside
    that observation, the partner's current hand and nothing else."""
    states: dict[int, tuple[GameState, int]] = {}
    real_observation = observation

    def recording_observation(state: GameState, seat: int | None) -> Observation:
        obs = real_observation(state, seat)
        assert seat is not None
        states[id(obs)] = (state, seat)
        return obs

    checked = []
    partner_hands = []

    def spy(real: Any) -> Any:
        def valued(obs: Observation, *args: Any, **kwargs: Any) -> Any:
            for arg in (*args, *kwargs.values()):
                assert not isinstance(arg, GameState)
            state, seat = states[id(obs)]
            assert cards_in(obs) <= knowable(state, seat)
            if real is play_values and len(args) == 4:  # (rng, config, ruleset, revealed)
                partner = (seat + 2) % 4
                assert args[3] == {partner: state.hands[partner]}
                partner_hands.append(args[3])
            else:
                checked.append(real.__name__)
            return real(obs, *args, **kwargs)

        return valued

    monkeypatch.setattr("games.engine.analysis.observation", recording_observation)
    monkeypatch.setattr("games.engine.analysis.play_values", spy(play_values))
    monkeypatch.setattr("games.engine.analysis.call_values", spy(call_values))
    state, rounds = _a_match(6)
    found = analysis.analyse_match(
        GAMERULES, rounds, seed="fw", dealer=state.history[0].dealer, target=60
    )
    assert len(checked) == len(found) > 20
    assert len(partner_hands) == sum(isinstance(d.chosen, Play) for d in found) > 10


def test_a_decision_is_valued_the_same_whatever_the_cards_the_seat_cannot_see() -> None:
    """Two tables that differ only in cards hidden from the seat to play (a card swapped
    between the other two seats' hands) give that seat the same observation, and the
    analysis the same values (the moderators' partner-knowing value too, unless the swap
    touched the partner's hand, which it is handed)."""
    compared = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = start_round(new_match(GAMERULES, dealer=seed % 4), shuffled_deck(rng))
        easy = load_bot("easy")
        while state.phase is not Phase.PLAYING and state.phase is not Phase.DEAL:
            seat = to_act(state)
            assert seat is not None
            state = apply(state, seat, easy(observation(state, seat), rng))
        if state.phase is not Phase.PLAYING:
            continue  # redealt: no contract
        seat = to_act(state)
        assert seat is not None
        plays = [m for m in legal_moves(state) if isinstance(m, Play)]
        if len(plays) < 2:
            continue
        a, b = [s for s in range(4) if s != seat][:2]
        hidden = knowable(state, seat)
        from_a = [c for c in cards_of(state.hands[a]) if c not in hidden]
        from_b = [c for c in cards_of(state.hands[b]) if c not in hidden]
        if not from_a or not from_b or state.declarations:
            continue
        hands = list(state.hands)
        hands[a] = hands[a] & ~(1 << from_a[0]) | (1 << from_b[0])
        hands[b] = hands[b] & ~(1 << from_b[0]) | (1 << from_a[0])
        swapped = dataclasses.replace(state, hands=(hands[0], hands[1], hands[2], hands[3]))
        assert observation(swapped, seat) == observation(state, seat)
        for move in plays:
            one = analysis._decision(state, seat, move, GAMERULES, "s", 16, 32)
            two = analysis._decision(swapped, seat, move, GAMERULES, "s", 16, 32)
            assert one is not None and two is not None
            assert one[:4] == two[:4]
            if (seat + 2) % 4 not in (a, b):
                assert one == two
        compared += 1
    assert compared >= 10


@pytest.mark.slow
def test_the_analysis_tells_the_easy_bot_from_the_normal_one() -> None:
    """Six matches of each level on the same decks, every decision analysed: easy's mean loss
    per decision is above normal's with the 95% intervals (over rounds) apart. (The hard bot
    is not ranked here: at the 16 deals a card a test can afford, its self-play loses as
    much as easy's by this measure, 1.08 against 1.05; bench/RESULTS.md, "Post-game
    analysis", has the figures and what stands in the way.)"""
    seeds = [11, 12, 13, 14, 15, 16]
    found = {
        level: interval(level_losses(level, seeds, "gamerules")[0]) for level in ("easy", "normal")
    }
    easy, normal = found["easy"], found["normal"]
    assert easy[1] > normal[2], found  # easy's lower bound above normal's upper bound
