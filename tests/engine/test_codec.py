"""One of each: the codec, the deck commitment, the replay, the state snapshot.

The golden files were written by the engine before its conversions moved into one module; the
record and the replay output must stay the same byte for byte (record-format.md)."""

from __future__ import annotations

import hashlib
import importlib
import io
import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

from games.engine import (
    GAMERULES,
    Declare,
    GameState,
    Phase,
    ReplayRefused,
    SnapshotError,
    apply,
    deck_commitment,
    legal_moves,
    moves,
    new_match,
    rebuild,
    record,
    replay_round,
    snapshot_version,
    start_round,
    state_from_snapshot,
    state_to_snapshot,
    to_act,
)
from games.engine import __main__ as cli
from games.engine.cards import card_str
from games.engine.codec import snapshot
from games.engine.moves import Play
from games.engine.rulesets import Ruleset
from games.engine.selfplay import play_match, random_choose, shuffled_deck

GOLDEN = Path(__file__).parent / "golden"
MATCH = GOLDEN / "match.json"
MATCH_REPLAY = GOLDEN / "match.replay.json"
# The package's ``observation`` attribute is the function; the module is found by name.
observation = importlib.import_module("games.engine.observation")


def test_golden_record_replays_to_the_same_bytes() -> None:
    out = io.StringIO()
    assert cli.main(["replay", str(MATCH)], out=out) == 0
    assert out.getvalue() == MATCH_REPLAY.read_text()


def test_golden_record_exports_to_the_same_record() -> None:
    # The golden match is seed 5 of the random bots, dealer 2, to 60, salts on rounds 0 and 1.
    state = play_match(random.Random(5), [random_choose] * 4, dealer=2, target=60)
    salts = {0: "golden-salt-0", 1: "golden-salt-1"}
    text = json.dumps(record.export_match(state, salts=salts), indent=1) + "\n"
    assert text == MATCH.read_text()
    assert record.state_from_record(json.loads(text)) == state


def test_the_conversions_live_in_the_codec_only() -> None:
    # One of each: the old homes of the conversions and of the commitment no longer offer
    # them, so no caller keeps a second path to them.
    gone = {
        moves: ["move_to_dict", "move_from_dict", "project_to_dict"],
        observation: ["observation_to_dict", "contract_to_dict"],
        record: [
            "contract_to_dict",
            "finished_round_to_dict",
            "live_round_to_dict",
            "result_to_dict",
            "trick_to_dict",
        ],
    }
    for module, names in gone.items():
        for name in names:
            assert not hasattr(module, name), (module.__name__, name)
    # What the record module uses itself is not part of what it offers.
    for name in ("deck_commitment", "next_to_dict", "round_to_dict"):
        assert name not in record.__all__, name


def test_deck_commitment_is_sha256_of_salt_colon_names() -> None:
    deck = shuffled_deck(random.Random(1))
    names = [card_str(c) for c in deck]
    expected = hashlib.sha256(("pepper:" + ",".join(names)).encode("utf-8")).hexdigest()
    assert deck_commitment("pepper", deck) == expected
    assert deck_commitment("pepper", names) == expected
    assert deck_commitment("", ["AS"]) == hashlib.sha256(b":AS").hexdigest()


def _played(seed: int) -> GameState:
    return play_match(random.Random(seed), [random_choose] * 4, target=80)


def test_rebuild_from_decks_and_moves_is_the_played_state() -> None:
    for seed in range(20):
        state = _played(seed)
        first = state.history[0]
        rounds = [(log.deck, log.actions) for log in state.history]
        rebuilt = rebuild(GAMERULES, rounds, dealer=first.dealer, target=state.target)
        assert rebuilt == state


def test_replay_round_reports_the_refused_action() -> None:
    state = _played(3)
    log = state.history[0]
    start = new_match(dealer=log.dealer, target=state.target)
    actions = list(log.actions)
    seat, _ = actions[5]
    actions[5] = ((seat + 1) % 4, actions[5][1])  # out of turn
    with pytest.raises(ReplayRefused) as refused:
        replay_round(start, log.deck, actions)
    assert refused.value.action == 5
    assert refused.value.error.code == "not_your_turn"
    assert refused.value.state == replay_round(start, log.deck, log.actions[:5])


def _random_states(seed: int, count: int) -> list[GameState]:
    """States met along random playouts (declaring sometimes), every phase included."""
    rng = random.Random(seed)
    state = new_match(dealer=rng.randrange(4), scores=(rng.randrange(120), rng.randrange(120)))
    out = [state]
    while len(out) < count:
        if state.phase is Phase.FINISHED:
            state = new_match(dealer=rng.randrange(4))
        elif state.phase is Phase.DEAL:
            state = start_round(state, shuffled_deck(rng))
        else:
            seat = to_act(state)
            assert seat is not None
            obs = observation.observation(state, seat)
            if obs.projects_suggested and rng.random() < 0.7:
                state = apply(state, seat, Declare(obs.projects_suggested))
            else:
                state = apply(state, seat, rng.choice(legal_moves(state)))
        out.append(state)
    return out


@pytest.mark.slow
def test_snapshot_round_trips_exactly() -> None:
    phases = set()
    for state in _random_states(11, 4000):
        data = state_to_snapshot(state)
        assert isinstance(data, bytes)
        back = state_from_snapshot(data)
        assert back == state
        assert back.ruleset is state.ruleset
        # It goes on to the same game: the next legal moves and the same replay output.
        assert legal_moves(back) == legal_moves(state)
        phases.add(state.phase)
    assert phases == set(Phase)


def test_snapshot_round_trips_whole_matches_and_unregistered_rulesets() -> None:
    for seed in range(10):
        state = _played(seed)
        assert state_from_snapshot(state_to_snapshot(state)) == state
    custom = Ruleset(name="house", version=3, kaboot_points=50, ashkal_positions=(3,))
    state = new_match(custom, dealer=1)
    assert state_from_snapshot(state_to_snapshot(state)).ruleset == custom


def test_snapshot_keeps_a_declaration_as_given() -> None:
    # A declared project keeps its cards in the order they came (the record sorts them).
    for state in _random_states(5, 3000):
        if state.declarations:
            seat, projects = state.declarations[0]
            project = replace(projects[0], cards=tuple(reversed(projects[0].cards)))
            odd = replace(state, declarations=((seat, (project, *projects[1:])),))
            assert state_from_snapshot(state_to_snapshot(odd)) == odd
            return
    raise AssertionError("no declaration met")


def test_snapshot_is_versioned_json() -> None:
    state = _random_states(2, 60)[-1]
    data = state_to_snapshot(state)
    parsed = json.loads(data)
    assert parsed["format"] == "baloot-state"
    assert parsed["version"] == snapshot.SNAPSHOT_VERSION == snapshot_version(data)
    assert state_from_snapshot(parsed) == state
    assert state_from_snapshot(data.decode()) == state


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"\x80\x05",  # a pickle is not a snapshot
        b"[]",
        b'{"format": "baloot-state", "version": 99, "state": {}}',
        b'{"format": "baloot-state", "version": true, "state": {}}',
        b'{"format": "other", "version": 1, "state": {}}',
        b'{"format": "baloot-state", "version": 1, "state": {"phase": "deal"}}',
    ],
)
def test_snapshot_refuses_what_it_cannot_read(data: bytes) -> None:
    with pytest.raises(SnapshotError):
        state_from_snapshot(data)


def test_snapshot_of_a_play_position_is_not_tied_to_class_layout() -> None:
    # Names, not positions: the snapshot holds no pickle opcodes or module paths.
    for state in _random_states(4, 200):
        if state.phase is Phase.PLAYING and state.trick:
            data = state_to_snapshot(state)
            assert b"games.engine" not in data
            body = json.loads(data)["state"]
            assert body["trick"] == [card_str(c) for c in state.trick]
            seat = to_act(state)
            assert seat is not None
            move = legal_moves(state)[0]
            assert isinstance(move, Play)
            assert apply(state_from_snapshot(data), seat, move) == apply(state, seat, move)
            return
    raise AssertionError("no play position met")
