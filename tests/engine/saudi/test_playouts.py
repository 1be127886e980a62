"""Seeded random `saudi` rounds and matches with random Sawa calls, checking the gamerules
playouts' invariants (tests/engine/test_playouts.py): 32 cards, abnat 130/162 when played out or
ended by a valid Sawa, legal moves exactly what `apply` accepts, export then replay equal; and
the bots playing saudi legally (S1-S30 as a whole)."""

from __future__ import annotations

import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from games.engine import SAUDI
from games.engine.bidding import Mode
from games.engine.bots import choose_move
from games.engine.bots.claim import sure_sawa
from games.engine.bots.normal import NormalConfig
from games.engine.codec.record_format import finished_round_to_dict
from games.engine.codec.snapshot import state_from_snapshot, state_to_snapshot
from games.engine.errors import EngineError
from games.engine.moves import Bid, Call, Declare, Double, DoubleCall, Move, Play, Sawa
from games.engine.observation import observation
from games.engine.record import export_match, export_round, replay, replay_state
from games.engine.rules import apply, legal_moves, may_declare, new_match, start_round, to_act
from games.engine.sawa import sawa_holds
from games.engine.state import GameState, Phase, RoundStatus
from tests.engine.test_playouts import assert_deal, deck, random_declaration

REPO = Path(__file__).resolve().parents[3]
LIVE = (Phase.BIDDING, Phase.DOUBLING, Phase.PLAYING)
ALL_BIDS = [Bid(call, suit) for call in Call for suit in (None, 0, 1, 2, 3)]
SURE = [0]  # positions where the bots' Sawa test proved a claim, over the playouts
ALL_DOUBLES = [Double(call, locked) for call in DoubleCall for locked in (None, False, True)]


def assert_legal_moves_exact(state: GameState) -> None:
    """legal_moves lists exactly the moves `apply` accepts, Sawa and `locked` included (a
    Double whose `locked` is ignored is accepted and normalized, so compare what is kept)."""
    seat = to_act(state)
    assert seat is not None
    if state.phase is Phase.PLAYING:
        candidates: list[Move] = [Play(c) for c in range(32) if state.hands[seat] >> c & 1]
        candidates.append(Sawa())
    else:
        candidates = [*ALL_BIDS, *ALL_DOUBLES]
    accepted = set()
    for move in candidates:
        try:
            after = apply(state, seat, move)
        except EngineError as exc:
            assert exc.code != "malformed", (move, exc)
            continue
        history = after.history[-1].actions if after.phase not in LIVE else after.actions
        accepted.add(history[len(state.actions)][1])
    assert accepted == set(legal_moves(state))


def play_round(state: GameState, rng: random.Random, *, exhaustive: bool) -> GameState:
    """One round of random legal moves; a Sawa, when open, is called one time in four."""
    state = start_round(state, deck(rng))
    assert_deal(state, 5)
    dealt = False
    while state.phase in LIVE:
        if state.phase is not Phase.BIDDING and not dealt:
            assert_deal(state, 8)
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
            assert state_from_snapshot(state_to_snapshot(state)) == state
        moves = legal_moves(state)
        if Sawa() in moves and sure_sawa(observation(state, seat)):
            # The bots' claim test is sound: what it proves, the engine's judgement accepts.
            assert state.contract is not None
            assert sawa_holds(state.hands, seat, state.contract.trump, state.locked, True)
            SURE[0] += 1
        if Sawa() in moves and rng.random() < 0.25:
            move: Move = Sawa()
        else:
            move = rng.choice([m for m in moves if m != Sawa()])
        state = apply(state, seat, move)
    return state


def assert_round_invariants(before: GameState, after: GameState) -> None:
    log = after.history[-1]
    result = log.result
    assert log.scores_after == (
        before.scores[0] + result.points[0],
        before.scores[1] + result.points[1],
    )
    if log.status is RoundStatus.REDEAL:
        assert log.contract is None and not log.tricks and result.sawa is None
        return
    assert log.contract is not None
    sun = log.contract.mode is Mode.SUN
    played = [card for trick in log.tricks for card in trick.cards]
    held = log.revealed_hands or (0, 0, 0, 0)
    remaining = [card for h in held for card in range(32) if h >> card & 1]
    assert sorted(played + remaining) == list(range(32))  # every card, once
    if result.sawa is None or result.sawa.valid:
        assert sum(result.abnat) == (130 if sun else 162)  # R6, S23
        assert sum(result.card_points) == (26 if sun else 16)
    else:
        assert sum(result.abnat) == sum(t.abnat for t in log.tricks) < (130 if sun else 162)
        assert result.kaboot is None
    if result.sawa is not None:
        assert len(log.tricks) >= 4 and log.revealed_hands is not None
        assert {h.bit_count() for h in held} == {8 - len(log.tricks)}
        contract = log.contract
        # The judgement (S22) once more, from the revealed hands and the round's lock.
        assert sawa_holds(held, result.sawa.seat, contract.trump, log.locked, True) is (
            result.sawa.valid
        )
    else:
        assert len(log.tricks) == 8 and log.revealed_hands is None
    if log.gahwa:
        assert result.points == (0, 0) and after.winner == result.gahwa_winner


def assert_round_replays(after: GameState) -> None:
    index = len(after.history) - 1
    log = after.history[index]
    out, status = replay(export_round(after, index))
    assert status == 0, out["error"]
    assert out["rounds"] == [finished_round_to_dict(log, with_sawa=True)]
    assert "sawa" in out["rounds"][0]["result"]
    replayed = replay_state(export_round(after, index)).state
    assert replayed is not None
    assert replayed.history == (replace(log, number=1),)


@pytest.mark.slow
def test_S20_S26_random_saudi_rounds_with_random_sawa_calls() -> None:
    rng = random.Random(1301)
    state = new_match(SAUDI, dealer=0)
    sawas = valid = 0
    for number in range(1200):
        if state.phase is Phase.FINISHED:
            state = new_match(SAUDI, dealer=rng.randrange(4))
        before = state
        state = play_round(state, rng, exhaustive=number % 8 == 0)
        assert_round_invariants(before, state)
        assert_round_replays(state)
        claim = state.history[-1].result.sawa
        sawas += claim is not None
        valid += bool(claim and claim.valid)
    assert sawas > 300 and 0 < valid < sawas
    assert SURE[0] > 10  # the bots' claim test does fire


def test_S26_random_saudi_matches_export_and_replay_equal() -> None:
    rng = random.Random(13)
    for _ in range(60):
        state = new_match(SAUDI, dealer=rng.randrange(4))
        while state.phase is not Phase.FINISHED:
            assert state.round_no < 500
            before = state
            state = play_round(state, rng, exhaustive=False)
            assert_round_invariants(before, state)
        record = export_match(state, salts={0: f"salt{rng.random()}"})
        assert record["ruleset"] == "saudi"
        result = replay_state(record)
        assert result.status == 0, result.output["error"]
        assert result.state == state
        assert result.output["winner"] == state.winner
        # The snapshot keeps the saudi parts too: the lock choices, the claims, the hands shown.
        back = state_from_snapshot(state_to_snapshot(state))
        assert back == state and back.ruleset is SAUDI


def test_S1_bots_play_saudi_matches_legally() -> None:
    """The easy and normal bots play whole saudi matches (every move is applied, so an
    illegal one would raise); a bot's Sawa is never false (claim.py proves it first)."""
    rng = random.Random(5)
    config = NormalConfig(samples=4, bid_samples=0)
    claims = 0
    for levels in (("easy",) * 4, ("normal", "easy", "normal", "easy")):
        state = new_match(SAUDI, dealer=0, target=60)
        while state.phase is not Phase.FINISHED:
            if state.phase is Phase.DEAL:
                state = start_round(state, deck(rng))
                continue
            seat = to_act(state)
            assert seat is not None
            obs = observation(state, seat)
            move = choose_move(levels[seat], obs, rng, normal_config=config, ruleset=SAUDI)
            state = apply(state, seat, move)
        for log in state.history:
            assert log.result.sawa is None or log.result.sawa.valid
            claims += log.result.sawa is not None
    assert claims > 0


def test_S1_cli_plays_a_saudi_match_and_prints_its_sheet() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "games.engine", "play", "--seed", "1", "--ruleset", "saudi"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert "ruleset saudi" in lines[0] and lines[-1].startswith("winner: team ")
    assert any("sawa" in line for line in lines)
