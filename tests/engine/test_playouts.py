"""Seeded random playouts: thousands of rounds and hundreds of matches of random legal moves,
with the deal, card and point invariants checked after every round (R5, R6, R8, R9, R33,
R34) and every round and match exported and replayed (record-format.md)."""

from __future__ import annotations

import random
import subprocess
import sys
from dataclasses import replace
from itertools import combinations
from pathlib import Path

import pytest

from games.engine.bidding import Mode
from games.engine.codec.record_format import finished_round_to_dict
from games.engine.errors import IllegalMove
from games.engine.moves import Bid, Call, Declare, Double, DoubleCall, Move, Play, Project
from games.engine.projects import available_projects, best_declaration
from games.engine.record import (
    export_match,
    export_round,
    replay,
    replay_state,
)
from games.engine.rules import apply, legal_moves, may_declare, new_match, start_round, to_act
from games.engine.state import GameState, Phase, RoundStatus

REPO = Path(__file__).resolve().parents[2]
LIVE = (Phase.BIDDING, Phase.DOUBLING, Phase.PLAYING)
ALL_BIDS = [Bid(call, suit) for call in Call for suit in (None, 0, 1, 2, 3)]
ALL_DOUBLES = [Double(call) for call in DoubleCall]


def deck(rng: random.Random) -> list[int]:
    cards = list(range(32))
    rng.shuffle(cards)
    return cards


def random_declaration(hand: int, mode: Mode, rng: random.Random) -> tuple[Project, ...]:
    """Nothing, the best declaration, or a random valid one or two disjoint projects."""
    options = available_projects(hand, mode)
    roll = rng.random()
    if not options or roll < 0.3:
        return ()
    if roll < 0.65:
        return best_declaration(hand, mode)
    choices: list[tuple[Project, ...]] = [(p,) for p in options]
    choices += [
        pair for pair in combinations(options, 2) if not set(pair[0].cards) & set(pair[1].cards)
    ]
    return rng.choice(choices)


def assert_legal_moves_exact(state: GameState) -> None:
    """legal_moves lists exactly the bids, doubles or plays that ``apply`` accepts. Both share
    the engine's implementation; test_legal_reference checks them against rules.md itself."""
    seat = to_act(state)
    assert seat is not None
    if state.phase is Phase.PLAYING:
        candidates: list[Move] = [Play(c) for c in range(32) if state.hands[seat] >> c & 1]
    else:
        candidates = [*ALL_BIDS, *ALL_DOUBLES]
    accepted = []
    for move in candidates:
        try:
            apply(state, seat, move)
        except IllegalMove:
            continue
        accepted.append(move)
    assert set(accepted) == set(legal_moves(state))


def assert_deal(state: GameState, per_hand: int) -> None:
    assert sorted(state.deck) == list(range(32))
    hands = state.hands
    assert [h.bit_count() for h in hands] == [per_hand] * 4
    union = 0
    for h in hands:
        assert not union & h  # no card in two hands
        union |= h
    if per_hand == 5:
        assert union == sum(1 << c for c in state.deck[:20])  # R8: D[20] is face up
    else:
        assert union == (1 << 32) - 1


def play_round(state: GameState, rng: random.Random, *, exhaustive: bool) -> GameState:
    """Deal and play one round of random legal moves, checking as it goes."""
    state = start_round(state, deck(rng))
    assert_deal(state, 5)
    dealt = False
    while state.phase in LIVE:
        if state.phase is not Phase.BIDDING and not dealt:
            assert_deal(state, 8)  # R9: the completion deal
            dealt = True
        seat = to_act(state)
        assert seat is not None
        if may_declare(state, seat):
            assert state.contract is not None
            projects = random_declaration(state.hands[seat], state.contract.mode, rng)
            if projects:
                state = apply(state, seat, Declare(projects))
        if exhaustive:
            assert_legal_moves_exact(state)
        moves = legal_moves(state)
        assert moves
        state = apply(state, seat, rng.choice(moves))
    return state


def assert_round_invariants(before: GameState, after: GameState) -> None:
    log = after.history[-1]
    result = log.result
    assert log.scores_after == (
        before.scores[0] + result.points[0],
        before.scores[1] + result.points[1],
    )
    if log.status is RoundStatus.REDEAL:
        assert log.contract is None and not log.tricks
        return
    assert log.contract is not None
    sun = log.contract.mode is Mode.SUN
    assert sum(result.abnat) == (130 if sun else 162)  # R6
    assert sum(result.card_points) == (26 if sun else 16)  # R33, R34
    assert len(log.tricks) == 8
    played = [card for trick in log.tricks for card in trick.cards]
    assert sorted(played) == list(range(32))
    assert sum(t.abnat for t in log.tricks) == sum(result.abnat)
    if log.gahwa:
        assert result.points == (0, 0) and after.winner == result.gahwa_winner


def assert_round_replays(after: GameState) -> None:
    index = len(after.history) - 1
    log = after.history[index]
    out, status = replay(export_round(after, index))
    assert status == 0, out["error"]
    assert out["rounds"] == [finished_round_to_dict(log)]
    assert out["scores"] == list(log.scores_after)
    replayed = replay_state(export_round(after, index)).state
    assert replayed is not None
    assert replayed.history == (replace(log, number=1),)


def continue_match(state: GameState, rng: random.Random) -> GameState:
    if state.phase is Phase.FINISHED:
        return new_match(dealer=rng.randrange(4))
    return state


@pytest.mark.slow
def test_thousands_of_random_rounds() -> None:
    rng = random.Random(20240611)
    state = new_match(dealer=0)
    complete = declared = 0
    for number in range(3000):
        state = continue_match(state, rng)
        before = state
        state = play_round(state, rng, exhaustive=number % 10 == 0)
        assert_round_invariants(before, state)
        assert_round_replays(state)
        complete += state.history[-1].status is RoundStatus.COMPLETE
        declared += bool(state.history[-1].result.declared)
    assert complete > 2900
    assert declared > 300  # the declaration paths were exercised too


def play_match(rng: random.Random) -> GameState:
    state = new_match(dealer=rng.randrange(4))
    while state.phase is not Phase.FINISHED:
        assert state.round_no < 500
        before = state
        state = play_round(state, rng, exhaustive=False)
        assert_round_invariants(before, state)
    return state


def test_hundreds_of_random_matches() -> None:
    rng = random.Random(7)
    gahwa_ends = 0
    for _ in range(200):
        state = play_match(rng)
        assert state.winner is not None
        last = state.history[-1].result
        if last.gahwa_winner is not None:
            gahwa_ends += 1
        else:
            # R42: the match ends at the target, the higher total winning.
            assert max(state.scores) >= state.target
            assert state.scores[state.winner] > state.scores[1 - state.winner]
        record = export_match(state, salts={0: f"salt{rng.random()}"})
        result = replay_state(record)
        assert result.status == 0, result.output["error"]
        assert result.state == state
        assert result.output["finished"] is True
        assert result.output["winner"] == state.winner
        assert result.output["scores"] == list(state.scores)
    assert gahwa_ends > 0  # random doubling reaches Gahwa now and then


def test_cli_play_runs_a_match_to_a_winner() -> None:
    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "games.engine", "play", "--seed", "3"],
            capture_output=True,
            text=True,
            cwd=REPO,
            timeout=60,
        )

    done = run()
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert lines[-1].startswith("winner: team ")
    assert len(lines) >= 4  # a title, the header, at least one round, the winner
    assert run().stdout == done.stdout  # seeded: the same match every time


def test_cli_play_plugs_in_the_easy_bot() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "games.engine", "play", "--seed", "3", "--bot", "easy"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "bots: easy" in done.stdout
    assert done.stdout.strip().splitlines()[-1].startswith("winner: team ")


@pytest.mark.parametrize("bot", ["no_such_bot"])
def test_cli_play_unknown_bot(bot: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "games.engine", "play", "--seed", "1", "--bot", bot],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )
    assert done.returncode == 2
    assert "no bot named" in done.stderr
