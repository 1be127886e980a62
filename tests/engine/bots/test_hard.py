"""The hard bot's parts: the evidence it reads into the other hands never rules out the real
deal, its endgame search is exact, its auctions value strong hands above weak ones, and it keeps
to its budget and to the observation."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.engine import GAMERULES, SAUDI, Ruleset, observation
from games.engine.bots import HardConfig, choose_move, hard
from games.engine.bots.auction import call_values
from games.engine.bots.endgame import Endgame
from games.engine.bots.inference import beliefs_of
from games.engine.bots.knowledge import compulsory_exclusions
from games.engine.bots.simulate import Playout
from games.engine.cards import cards_of
from games.engine.moves import Bid, Call
from games.engine.play import close_trick, legal_play_mask
from games.engine.rules import to_act
from games.engine.state import GameState, Phase

from ..helpers import dealt
from .states import bot_match_states, random_states, seat_of

FAST = HardConfig(samples=4, bid_samples=8, double_samples=4)


def _holdings(state: GameState) -> tuple[int, int, int, int]:
    """Each seat's cards of the round: in hand now, or played."""
    held = list(state.hands)
    for trick in state.tricks:
        for i, card in enumerate(trick.cards):
            held[(trick.leader + i) % 4] |= 1 << card
    for i, card in enumerate(state.trick):
        held[(state.leader + i) % 4] |= 1 << card
    return (held[0], held[1], held[2], held[3])


@pytest.mark.parametrize("ruleset", [GAMERULES, SAUDI], ids=lambda r: r.name)
def test_the_real_deal_always_keeps_weight_and_is_never_excluded(ruleset: Ruleset) -> None:
    checked = 0
    for seed in range(3):
        for state in bot_match_states(ruleset, seed):
            if state.phase is not Phase.PLAYING:
                continue
            holdings = _holdings(state)
            for seat in range(4):
                obs = observation(state, seat)
                assert beliefs_of(obs, ruleset).weight(holdings) > 0
                excluded = compulsory_exclusions(obs, ruleset)
                for other in range(4):
                    assert not excluded[other] & state.hands[other], (seat, other)
                checked += 1
    assert checked > 1000


def test_saudi_play_proves_an_empty_trump_suit() -> None:
    """S6: a seat void in the led suit that did not trump while an opponent won held no trump."""
    found = 0
    for state in bot_match_states(SAUDI, 7):
        if state.phase is not Phase.PLAYING or state.contract is None:
            continue
        trump = state.contract.trump
        if trump is None:
            continue
        excluded = compulsory_exclusions(observation(state, 0), SAUDI)
        found += sum(1 for s in range(1, 4) if excluded[s] & (0xFF << 8 * trump))
    assert found > 0


def test_a_hokum_bidder_without_the_trump_jack_or_nine_is_less_likely() -> None:
    for state in random_states(5, 40):
        contract = state.contract
        if state.phase is not Phase.PLAYING or contract is None or contract.trump is None:
            continue
        seat = (contract.declarer + 1) % 4  # an opponent of the declarer looks
        beliefs = beliefs_of(observation(state, seat), GAMERULES)
        if not any(
            c.seat == contract.declarer and c.call.call is Call.HOKUM for c in beliefs.calls
        ):
            continue
        holdings = list(_holdings(state))
        trump_cards = 0xFF << 8 * contract.trump
        jack_nine = (1 << (contract.trump * 8 + 3)) | (1 << (contract.trump * 8 + 5))
        strong = list(holdings)
        strong[contract.declarer] |= jack_nine
        weak = list(holdings)
        weak[contract.declarer] &= ~jack_nine & ~trump_cards | (trump_cards & ~jack_nine)
        assert beliefs.weight(tuple(strong)) > beliefs.weight(tuple(weak))  # type: ignore[arg-type]
        return
    raise AssertionError("no Hokum played in these states")


def _minimax(
    hands: list[int],
    leader: int,
    trick: list[int],
    done: int,
    abnat: list[int],
    counts: list[int],
    team: int,
    trump: int | None,
    locked: bool,
    compulsory: bool,
    playout: Playout,
) -> float:
    """Plain minimax over every legal card: the reference the search must equal."""
    if done == 8:
        return playout.margin((abnat[0], abnat[1]), (counts[0], counts[1]))
    seat = (leader + len(trick)) % 4
    legal = legal_play_mask(hands[seat], tuple(trick), trump, locked, compulsory)
    results = []
    for card in cards_of(legal):
        hands[seat] &= ~(1 << card)
        now = [*trick, card]
        if len(now) == 4:
            winner, points = close_trick(tuple(now), leader, trump, done)
            a, c = list(abnat), list(counts)
            a[winner % 2] += points
            c[winner % 2] += 1
            results.append(
                _minimax(
                    hands, winner, [], done + 1, a, c, team, trump, locked, compulsory, playout
                )
            )
        else:
            results.append(
                _minimax(
                    hands,
                    leader,
                    now,
                    done,
                    abnat,
                    counts,
                    team,
                    trump,
                    locked,
                    compulsory,
                    playout,
                )
            )
        hands[seat] |= 1 << card
    return max(results) if seat % 2 == team else min(results)


@pytest.mark.parametrize("ruleset", [GAMERULES, SAUDI], ids=lambda r: r.name)
def test_the_endgame_search_is_exact(ruleset: Ruleset) -> None:
    """Transposition table and equivalent cards included, the search finds the value plain
    minimax finds, with 8 to 12 cards left (every hand known, as in a deal of the search)."""
    rng = random.Random(3)
    compared = 0
    for state in bot_match_states(ruleset, 11):
        if state.phase is not Phase.PLAYING or len(state.tricks) not in (5, 6):
            continue
        if rng.random() > 0.3:
            continue
        contract = state.contract
        assert contract is not None
        team = seat_of(state) % 2
        playout = Playout(state, team)
        compulsory = ruleset.compulsory_trumping
        search = Endgame(contract.trump, state.locked, compulsory, team, playout.margin)
        expected = _minimax(
            list(state.hands),
            state.leader,
            list(state.trick),
            len(state.tricks),
            list(state.abnat),
            list(state.trick_counts),
            team,
            contract.trump,
            state.locked,
            compulsory and contract.trump is not None,
            playout,
        )
        got = search.value(
            list(state.hands),
            state.leader,
            list(state.trick),
            len(state.tricks),
            state.abnat,
            state.trick_counts,
        )
        assert got == expected
        compared += 1
    assert compared > 15


def strong_hokum_opening() -> GameState:
    """Dealer 0; seat 1 opens holding the J, 9 and A of the face-up 7H's suit (the first five
    cards of each hand are the dealt ones)."""
    return dealt(
        {
            1: "JH 9H AH AS AD 10H KH 7H",
            2: "7S 8S 9S 7D 8D QS JS 10S",
            3: "KS QD 9D 10D JD QH 8H 7C",
            0: "AC KC QC JC 10C 9C 8C KD",
        },
        face_up="7H",
        recipient=1,
    )


def test_the_auction_values_a_strong_hokum_above_passing_and_a_weak_hand_below() -> None:
    strong = strong_hokum_opening()
    weak = dealt(
        {
            1: "7S 8S 7D 8D 7C 10H KH 7H",
            2: "JH 9H AH AS AD QS JS 10S",
            3: "KS QD 9D 10D JD QH 8H 9S",
            0: "AC KC QC JC 10C 9C 8C KD",
        },
        face_up="7H",
        recipient=1,
    )
    calls = [Bid(Call.PASS), Bid(Call.HOKUM), Bid(Call.SUN)]
    strong_values = call_values(
        observation(strong, 1), calls, random.Random(1), GAMERULES, samples=40, budget=0
    )
    weak_values = call_values(
        observation(weak, 1), calls, random.Random(1), GAMERULES, samples=40, budget=0
    )
    assert strong_values[1] > strong_values[0]  # Hokum beats passing with J, 9, A of trump
    assert weak_values[0] > weak_values[1] and weak_values[0] > weak_values[2]


def test_a_pass_margin_passes_a_call_that_gains_less_than_it() -> None:
    strong = strong_hokum_opening()
    obs = observation(strong, 1)
    legal = [m for m in obs.legal_moves if isinstance(m, Bid)]
    # choose_bid values the calls on the same deals (the same rng, bid_samples of them).
    values = call_values(obs, legal, random.Random(5), GAMERULES, samples=40, budget=0)
    passing = values[legal.index(Bid(Call.PASS))]
    gain = max(values) - passing
    assert gain > 1  # the hand is worth a call

    def bid(margin: float) -> Bid:
        config = HardConfig(samples=4, bid_samples=40, pass_margin=margin)
        move = hard.choose(obs, random.Random(5), config, GAMERULES)
        assert isinstance(move, Bid)
        return move

    assert bid(0).call is not Call.PASS
    assert bid(gain - 0.5).call is not Call.PASS
    assert bid(gain + 0.5) == Bid(Call.PASS)


def test_fixed_samples_make_the_hard_bot_deterministic() -> None:
    for state in random_states(9, 4):
        if state.phase is Phase.PLAYING and len(state.tricks) == 2:
            obs = observation(state, seat_of(state))
            moves = {hard.choose(obs, random.Random(4), FAST, GAMERULES) for _ in range(3)}
            assert len(moves) == 1
            return
    raise AssertionError("no position found")


def test_the_budget_bounds_the_deals_searched(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a clock that advances 10 ms per reading, a 0.2 s budget stops the search after a
    few deals, whatever the machine's speed (no wall-clock time is measured here)."""
    now = [0.0]

    def fake_clock() -> float:
        now[0] += 0.01
        return now[0]

    monkeypatch.setattr("games.engine.bots.hard.time.perf_counter", fake_clock)
    seen: list[int] = []
    real = Playout

    def counting(*args: Any, **kwargs: Any) -> Any:
        seen.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr("games.engine.bots.hard.Playout", counting)
    config = HardConfig(budget=0.2, min_samples=2, stop_z=1e9)
    for state in random_states(6, 3):
        if state.phase is Phase.PLAYING and len(observation(state, seat_of(state)).legal_moves) > 2:
            seen.clear()
            hard.choose_play(
                observation(state, seat_of(state)), random.Random(1), config, GAMERULES
            )
            assert 2 <= len(seen) <= 20
            return
    raise AssertionError("no position found")


def test_every_decision_is_legal_in_saudi_too() -> None:
    rng = random.Random(2)
    for state in random_states(12, 6):
        seat = to_act(state)
        if seat is None:
            continue
        obs = observation(state, seat)
        move = choose_move("hard", obs, rng, hard_config=FAST, ruleset=GAMERULES)
        assert move in obs.legal_moves or obs.projects_suggested
