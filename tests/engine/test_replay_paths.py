"""The replay's fast paths give exactly what the plain ones give (record-format.md: records and
replay output stay byte for byte the same):

* ``jsontext.dumps_indented`` writes what ``json.dumps(output, indent=2)`` writes, for every
  output a replay makes (complete, refused, malformed, live, saudi) and for shapes it does not
  template;
* the record parser's lookups of plays and bids give the moves, and the errors, of
  ``codec.move_from_dict``;
* ``apply_moves`` reaches the state that ``apply`` one move at a time reaches, and a refused
  move leaves the state as it was before that move.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from games.engine import GAMERULES, SAUDI, Declare, Play, Ruleset, Sawa
from games.engine.codec.moves import move_from_dict
from games.engine.errors import EngineError, MalformedMove
from games.engine.jsontext import dumps_indented
from games.engine.moves import PLAYS, Move
from games.engine.observation import observation
from games.engine.record import (
    _parse_action,
    _parse_actions,
    export_match,
    replay_json,
    replay_text,
)
from games.engine.replay import MovesRefused, apply_moves
from games.engine.rules import apply, legal_moves, new_match, start_round, to_act
from games.engine.selfplay import shuffled_deck
from games.engine.state import GameState, Phase


def _random_match(seed: int, ruleset: Ruleset, target: int = 152) -> GameState:
    """A random match with declarations, Sawa (saudi) and doubling, up to 40 rounds."""
    rng = random.Random(seed)
    state = new_match(ruleset, dealer=rng.randrange(4), target=target)
    while state.phase is not Phase.FINISHED and state.round_no < 40:
        if state.phase is Phase.DEAL:
            state = start_round(state, shuffled_deck(rng))
            continue
        seat = to_act(state)
        assert seat is not None
        suggested = observation(state, seat).projects_suggested
        moves = legal_moves(state)
        if suggested and rng.random() < 0.8:
            move: Any = Declare(suggested)
        elif any(isinstance(m, Sawa) for m in moves) and rng.random() < 0.3:
            move = Sawa()
        else:
            move = rng.choice(moves)
        state = apply(state, seat, move)
    return state


def _corrupt(record: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The record with one action spoilt, as a careless or hostile client might."""
    spoilt = copy.deepcopy(record)
    rounds = spoilt["rounds"]
    actions = rounds[rng.randrange(len(rounds))]["actions"]
    if not actions:
        return spoilt
    action = actions[rng.randrange(len(actions))]
    change = rng.randrange(8)
    if change == 0:
        action["seat"] = rng.choice([(action["seat"] + 1) % 4, 7, -1, True, "1", None, 1.0])
    elif change == 1:
        action["card"] = rng.choice(["AS", "7H", "QQ", 5, None, ["AS"], {"a": 1}, True])
    elif change == 2:
        action["type"] = rng.choice(["bid", "double", "play", "declare", "sawa", "x", 3, None])
    elif change == 3:
        action["call"] = rng.choice(["pass", "hokum", "sun", "ashkal", "gahwa", ["pass"], 1])
    elif change == 4:
        action["suit"] = rng.choice(["S", "H", "X", 2, None, ["S"]])
    elif change == 5:
        action["locked"] = rng.choice([True, False, 1, "x", None])
    elif change == 6:
        actions.insert(rng.randrange(len(actions) + 1), rng.choice([[1], "play", 7, None]))
    else:
        del actions[rng.randrange(len(actions))]
    return spoilt


def _records() -> list[str]:
    """Records as text: whole random matches, spoilt ones, unfinished ones, non-records."""
    rng = random.Random(99)
    texts = []
    for ruleset in (GAMERULES, SAUDI):
        for seed in range(25):
            state = _random_match(seed, ruleset, target=152 if seed % 3 else 400)
            record = export_match(state, salts={0: f"s{seed}"} if seed % 4 == 0 else None)
            texts.append(json.dumps(record))
            for _ in range(4):
                texts.append(json.dumps(_corrupt(record, rng)))
            live = copy.deepcopy(record)
            live["rounds"][-1]["actions"] = live["rounds"][-1]["actions"][: rng.randrange(40)]
            texts.append(json.dumps(live))
    texts.append("not json")
    texts.append(json.dumps({"format": "baloot-record/1", "rounds": 3}))
    return texts


RECORDS = _records()
OUTPUTS = [replay_text(text)[0] for text in RECORDS]


def test_the_outputs_cover_what_the_templates_write() -> None:
    """Refusals, live rounds, Sawa, declarations and malformed records are all in the sample."""
    text = "".join(json.dumps(o) for o in OUTPUTS)
    for needle in ('"sawa": {', '"declared": [{', '"status": "in_progress"', '"malformed"'):
        assert needle in text, needle
    codes = {o["error"]["code"] for o in OUTPUTS if o["error"]}
    assert {"not_your_turn", "malformed", "illegal_call"} <= codes


@pytest.mark.parametrize("index", range(len(OUTPUTS)))
def test_dumps_indented_is_json_dumps_byte_for_byte(index: int) -> None:
    output = OUTPUTS[index]
    assert dumps_indented(output) == json.dumps(output, indent=2)


@pytest.mark.parametrize("index", range(len(RECORDS)))
def test_the_command_prints_json_dumps_of_the_replay_byte_for_byte(index: int) -> None:
    """``replay_json`` (complete rounds written from their logs) against the plain way."""
    output, status = replay_text(RECORDS[index])
    assert replay_json(RECORDS[index]) == (json.dumps(output, indent=2), status)


@pytest.mark.parametrize(
    "value",
    [
        {"rounds": [], "x": 1},
        {"rounds": [{"dealer": 0}], "scores": [1, 2]},
        {
            "rounds": [
                {
                    "dealer": 0,
                    "face_up": "7S",
                    "status": "x",
                    "contract": None,
                    "tricks": [{"leader": 0, "cards": ["7S", "ZZ"], "winner": 1.5, "abnat": [1]}],
                    "result": None,
                }
            ]
        },
        {
            "rounds": [
                {
                    "dealer": "é",
                    "face_up": None,
                    "status": True,
                    "contract": {"kind": 1},
                    "tricks": "no",
                    "result": {"abnat": [1]},
                }
            ]
        },
        {
            "rounds": [
                {
                    "dealer": 0,
                    "face_up": "7S",
                    "status": "c",
                    "contract": None,
                    "tricks": [],
                    "result": {
                        "abnat": [1, 2],
                        "card_points": [1, 2],
                        "projects": {
                            "declared": [{"seat": 1}],
                            "awarded_team": None,
                            "points": [0, 0],
                        },
                        "baloot": [],
                        "kaboot": None,
                        "bidder_team": 0,
                        "bidder_failed": False,
                        "points": [1, 2],
                        "gahwa_winner": None,
                    },
                }
            ]
        },
        [1, {"a": [2, None]}],
        "plain",
    ],
)
def test_dumps_indented_falls_back_on_shapes_it_does_not_template(value: Any) -> None:
    assert dumps_indented(value) == json.dumps(value, indent=2)


_ACTIONS = [
    {"seat": s, "type": t, **extra}
    for s in (0, 3, 4, -1, True, 1.0, "1", None)
    for t, extra in (
        ("play", {"card": "AS"}),
        ("play", {"card": "10H"}),
        ("play", {"card": "ZZ"}),
        ("play", {"card": ["AS"]}),
        ("play", {}),
        ("bid", {"call": "pass"}),
        ("bid", {"call": "hokum", "suit": "D"}),
        ("bid", {"call": "hokum", "suit": None}),
        ("bid", {"call": ["pass"]}),
        ("bid", {"call": "nope"}),
        ("double", {"call": "double", "locked": True}),
        ("double", {"call": "double", "locked": "yes"}),
        ("double", {"call": "pass"}),
        ("double", {"call": "gahwa"}),
        ("double", {"call": "four", "locked": None}),
        ("double", {"call": "nope"}),
        ("double", {"call": 2}),
        ("double", {}),
        ("sawa", {}),
        ("declare", {"projects": []}),
    )
]


@pytest.mark.parametrize("ruleset", [GAMERULES, SAUDI], ids=lambda r: r.name)
def test_the_parser_lookups_parse_as_move_from_dict(ruleset: Ruleset) -> None:
    for action in [*_ACTIONS, {"type": "play", "card": "AS"}, {"seat": 0}, "x", 3, None, ["play"]]:
        try:
            expected: Any = _parse_action(action, ruleset)
        except MalformedMove as error:
            expected = ("malformed", str(error))
        parsed, problem = _parse_actions([action], ruleset)
        got: Any = parsed[0] if parsed else ("malformed", str(problem))
        assert got == expected, action
        if isinstance(action, dict) and parsed:
            assert got[1] == move_from_dict(action, ruleset)


def test_apply_moves_reaches_the_states_apply_reaches() -> None:
    """The fast replay (replay.py ``apply_moves`` and its loop over runs of plays,
    ``_play_run``) keeps its own loop for speed; this test and the ones below hold it to the
    one-move rules (rules.py ``apply``) over every round of many random matches of both
    rulesets, and at thousands of random positions inside their play."""
    for seed in range(6):
        for ruleset in (GAMERULES, SAUDI):
            final = _random_match(seed, ruleset)
            for log in final.history:
                dealt = start_round(
                    new_match(ruleset, dealer=log.dealer, scores=_before(log)), log.deck
                )
                one_by_one = dealt
                for seat, move in log.actions:
                    one_by_one = apply(one_by_one, seat, move)
                assert apply_moves(dealt, log.actions) == one_by_one


def _before(log: Any) -> tuple[int, int]:
    return (
        log.scores_after[0] - log.result.points[0],
        log.scores_after[1] - log.result.points[1],
    )


def _play_cuts(log: Any, rng: random.Random) -> list[int]:
    """A few indexes of ``log``'s actions inside its play phase (after the last call)."""
    first_play = next(i for i, (_, m) in enumerate(log.actions) if isinstance(m, Play))
    return rng.sample(range(first_play, len(log.actions)), 3)


def _apply_moves_agrees(
    dealt: GameState, moves: list[tuple[Any, Move]], before: GameState
) -> GameState | EngineError:
    """``apply_moves(dealt, moves)`` against ``apply`` of the last move on ``before`` (the
    state after the others): the same state, or refused at that move with the same code and
    ``before`` kept. Returns that state, or ``apply``'s refusal."""
    seat, move = moves[-1]
    try:
        after = apply(before, seat, move)
    except EngineError as error:
        with pytest.raises(MovesRefused) as stopped:
            apply_moves(dealt, moves)
        assert stopped.value.index == len(moves) - 1
        assert stopped.value.state == before
        assert stopped.value.error.code == error.code
        return error
    assert apply_moves(dealt, moves) == after
    return after


@pytest.mark.slow
def test_apply_moves_refuses_every_play_apply_refuses_in_the_middle_of_the_play() -> None:
    """``apply_moves`` runs through consecutive card plays without ``rules.play_card``: every
    card by the seat to act, the next seat and ints and bools that are not seats, at points
    inside the play of Sun, Hokum, locked and Saudi rounds, is refused or accepted as ``apply``
    does, and the plays after an accepted one go on from the same state."""
    rng = random.Random(11)
    refused = accepted = 0
    for seed in range(8):
        for ruleset in (GAMERULES, SAUDI):
            final = _random_match(seed, ruleset)
            for log in final.history[:6]:
                if not log.tricks:
                    continue
                dealt = start_round(
                    new_match(ruleset, dealer=log.dealer, scores=_before(log)), log.deck
                )
                for cut in _play_cuts(log, rng):
                    before = apply_moves(dealt, log.actions[:cut])
                    seat = to_act(before)
                    assert seat is not None
                    for probe in (seat, (seat + 1) % 4, 4, -1, True):
                        for move in PLAYS:
                            moves = [*log.actions[:cut], (probe, move)]
                            after = _apply_moves_agrees(dealt, moves, before)
                            if isinstance(after, EngineError):
                                refused += 1
                                continue
                            # The log's own next moves may not follow this card: replay the
                            # legal moves after it instead, one at a time and in one go.
                            state, more = after, list[tuple[int, Move]]()
                            while (next_seat := to_act(state)) is not None and len(more) < 6:
                                chosen = rng.choice(legal_moves(state))
                                more.append((next_seat, chosen))
                                state = apply(state, next_seat, chosen)
                            assert apply_moves(dealt, [*moves, *more]) == state
                            accepted += 1
    assert refused > 1000 and accepted > 50


def test_a_bool_is_no_seat_for_apply_moves_in_the_bidding_and_the_doubling() -> None:
    """True == 1 and False == 0 in Python: a call by True where seat 1 is to act is still
    malformed, in ``apply_moves`` as in ``apply``."""
    checked = 0
    for seed in range(6):
        for ruleset in (GAMERULES, SAUDI):
            dealt, played = _locked_round(seed, ruleset)  # bidding and doubling, every time
            log = played.history[-1]
            for cut, (seat, move) in enumerate(log.actions):
                if isinstance(move, Play):
                    break
                if seat not in (0, 1):
                    continue
                flag = bool(seat)
                with pytest.raises(MalformedMove):
                    apply(apply_moves(dealt, log.actions[:cut]), flag, move)
                with pytest.raises(MovesRefused) as stopped:
                    apply_moves(dealt, [*log.actions[:cut], (flag, move)])
                assert stopped.value.index == cut
                assert stopped.value.error.code == "malformed"
                checked += 1
    assert checked > 10


def _locked_round(seed: int, ruleset: Ruleset) -> tuple[GameState, GameState]:
    """(the deal, the round played out) of a Hokum doubled and closed (R23, S10), with
    random plays: random matches lock a round too seldom to test its leads."""
    rng = random.Random(seed)
    dealt = start_round(new_match(ruleset, dealer=seed % 4), shuffled_deck(rng))
    state = dealt
    while (seat := to_act(state)) is not None:
        moves: list[Any] = legal_moves(state)
        if state.phase is Phase.BIDDING:
            move = next((m for m in moves if m.call.value == "hokum"), moves[0])
        elif state.phase is Phase.DOUBLING:
            raises = [m for m in moves if m.call.value == "double" and m.locked is not False]
            move = raises[-1] if raises else moves[0]
        else:
            move = rng.choice(moves)
        state = apply(state, seat, move)
    return dealt, state


def test_apply_moves_keeps_the_lock_on_every_lead_of_a_locked_round() -> None:
    """R23: in a closed round no trump is led while the leader holds another suit, in
    ``apply_moves``'s run of plays as in ``apply``."""
    checked = 0
    for seed in range(6):
        for ruleset in (GAMERULES, SAUDI):
            dealt, played = _locked_round(seed, ruleset)
            log = played.history[-1]
            assert log.locked and log.tricks
            for cut, (_, move) in enumerate(log.actions):
                if not isinstance(move, Play):
                    continue
                before = apply_moves(dealt, log.actions[:cut])
                if before.trick:
                    continue  # leads only
                seat = to_act(before)
                assert seat is not None
                for card in PLAYS:
                    after = _apply_moves_agrees(dealt, [*log.actions[:cut], (seat, card)], before)
                    if isinstance(after, EngineError):
                        checked += after.code == "locked_trump_lead"
    assert checked > 20


def test_a_malformed_move_from_a_lazy_parser_is_refused_at_its_index_mid_play() -> None:
    """An iterator that parses as it goes may raise on a move in a run of card plays: the
    refusal names that move, and the state holds the plays before it."""
    rng = random.Random(4)
    for seed in range(6):
        final = _random_match(seed, GAMERULES)
        for log in final.history[:4]:
            if not log.tricks:
                continue
            dealt = start_round(new_match(dealer=log.dealer, scores=_before(log)), log.deck)
            for cut in _play_cuts(log, rng):

                def parsed(cut: int = cut, log: Any = log) -> Iterator[tuple[int, Any]]:
                    yield from log.actions[:cut]
                    raise MalformedMove("not a card: 'QQ'")

                with pytest.raises(MovesRefused) as stopped:
                    apply_moves(dealt, parsed())
                assert stopped.value.index == cut
                assert stopped.value.state == apply_moves(dealt, log.actions[:cut])
                assert stopped.value.error.code == "malformed"


def test_a_refused_move_leaves_apply_moves_at_the_state_before_it() -> None:
    rng = random.Random(5)
    checked = 0
    for seed in range(10):
        final = _random_match(seed, GAMERULES)
        log = final.history[0]
        dealt = start_round(new_match(dealer=log.dealer), log.deck)
        for cut in rng.sample(range(len(log.actions)), 5):
            state = apply_moves(dealt, log.actions[:cut])
            seat = to_act(state)
            assert seat is not None
            legal = legal_moves(state)
            # Every move the state refuses, by this seat and by the next one.
            for probe_seat in (seat, (seat + 1) % 4):
                for move in {*legal, *(m for _, m in log.actions)}:
                    try:
                        apply(state, probe_seat, move)
                    except EngineError as error:
                        with pytest.raises(MovesRefused) as refused:
                            apply_moves(dealt, [*log.actions[:cut], (probe_seat, move)])
                        assert refused.value.index == cut
                        assert refused.value.state == state
                        assert refused.value.error.code == error.code
                        checked += 1
    assert checked > 100
