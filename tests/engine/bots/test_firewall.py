"""The information firewall (api.md "Hidden information never leaks"): what a seat is shown,
and everything a bot is handed, holds no card that seat may not know.

What a seat may know is worked out here from the GameState and the rules, not from the
observation code: its own hand; every card played so far (R26-R28: tricks are played face up,
which also covers the trump K and Q once Baloot is announced, R32); the face-up card (R8; the
recipient takes it in view of the table, R9); its own declared projects, and the other seats'
projects once trick 1 is complete (R30). The test walks the whole observation object, and its
JSON form, collecting every card in it, at thousands of positions of random rounds, for every
seat and for a spectator. It then checks that bots are only ever given an observation, at run
time; that every call site hands one is a source check (bot-observations in
scripts/check_source.py, make lint)."""

from __future__ import annotations

import dataclasses
import functools
import inspect
import random
import typing
from collections.abc import Callable
from enum import Enum
from pathlib import Path
from typing import Any

import pytest

import games.engine
from games.engine import observation
from games.engine.bidding import Contract
from games.engine.bots import (
    BOT_LEVELS,
    HardConfig,
    NormalConfig,
    choose_move,
    easy,
    hard,
    normal,
    random_bot,
)
from games.engine.cards import Card, cards_of, parse_card
from games.engine.codec import record_format
from games.engine.observation import Observation
from games.engine.rules import to_act
from games.engine.selfplay import play_match, random_choose
from games.engine.state import GameState, Phase

from .states import random_states

CONFIG = NormalConfig(samples=6)
HARD = HardConfig(samples=4, bid_samples=4, double_samples=4)
REPO = Path(games.engine.__file__).resolve().parents[2]

# Fields holding cards whose annotation says ``int`` rather than ``Card``.
INT_CARD_FIELDS = {(Contract, "face_up")}
# Every other int-bearing field reachable from an Observation, reviewed as not holding cards.
# A new field fails test_every_observation_field_is_classified until it is put here or is
# annotated as cards, so a leak cannot hide in a field the walk does not read as cards.
NOT_CARDS = {
    "Observation": {
        "seat",
        "round_no",
        "dealer",
        "scores",
        "target",
        "to_act",
        "card_counts",
        "calls",
        "doubles",
        "multiplier",
        "doubler",
        "leader",
        "abnat",
        "trick_counts",
        "baloot",
        "winner",
    },
    "Bid": {"suit"},
    "Contract": {"trump", "declarer", "recipient", "bidding_round"},
    "Trick": {"leader", "winner", "abnat"},
    "PublicDeclaration": {"seat"},
}


def _is_card_field(owner: Any, field: dataclasses.Field[Any]) -> bool:
    annotation = field.type if isinstance(field.type, str) else repr(field.type)
    return "Card" in annotation or (type(owner), field.name) in INT_CARD_FIELDS


def cards_in(
    value: Any, *, as_cards: bool = False, seen: set[tuple[str, str]] | None = None
) -> set[Card]:
    """Every card anywhere in ``value``: dataclasses are walked field by field, containers item
    by item; an int counts as a card when the field it sits in holds cards."""
    found: set[Card] = set()
    if isinstance(value, GameState):
        raise AssertionError("a GameState inside what a seat is shown")
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            if seen is not None:
                seen.add((type(value).__name__, field.name))
            found |= cards_in(
                getattr(value, field.name), as_cards=_is_card_field(value, field), seen=seen
            )
    elif isinstance(value, (tuple, list, set, frozenset)):
        for item in value:
            found |= cards_in(item, as_cards=as_cards, seen=seen)
    elif isinstance(value, dict):
        for key, item in value.items():
            found |= cards_in(key, as_cards=as_cards, seen=seen)
            found |= cards_in(item, as_cards=as_cards, seen=seen)
    elif isinstance(value, (bool, Enum, str)) or value is None:
        pass
    elif isinstance(value, int):
        if as_cards:
            found.add(value)
    else:
        raise AssertionError(f"unexpected value in an observation: {value!r}")
    return found


def card_names_in_json(value: Any) -> set[Card]:
    """Every string in the JSON form that names a card."""
    if isinstance(value, dict):
        return set().union(*(card_names_in_json(v) for v in value.values()), set())
    if isinstance(value, list):
        return set().union(*(card_names_in_json(v) for v in value), set())
    if isinstance(value, str):
        try:
            return {parse_card(value)}
        except ValueError:
            return set()
    return set()


def knowable(state: GameState, seat: int | None) -> set[Card]:
    """What ``seat`` (None: a spectator) may know about the cards, from the rules."""
    known: set[Card] = set()
    if seat is not None:
        known |= set(cards_of(state.hands[seat]))
    for trick in state.tricks:
        known |= set(trick.cards)
    known |= set(state.trick)
    if state.face_up is not None:
        known.add(state.face_up)
    trick1_done = len(state.tricks) >= 1
    for declarer, projects in state.declarations:
        if declarer == seat or trick1_done:
            for project in projects:
                known |= set(project.cards)
    return known


@pytest.mark.slow
def test_an_observation_holds_only_what_its_seat_may_know() -> None:
    positions = 0
    phases = set()
    for seed in range(6):
        for state in random_states(seed, 40):
            for seat in (0, 1, 2, 3, None):
                obs = observation(state, seat)
                allowed = knowable(state, seat)
                leaked = cards_in(obs) - allowed
                assert not leaked, (seat, state.phase, sorted(leaked))
                leaked_json = card_names_in_json(record_format.observation_to_dict(obs)) - allowed
                assert not leaked_json, (seat, state.phase, sorted(leaked_json))
                # Everything the seat may know about its own cards it is shown.
                if seat is not None:
                    assert set(obs.hand) == set(cards_of(state.hands[seat]))
            positions += 1
            phases.add(state.phase)
    assert positions > 3000
    assert {Phase.BIDDING, Phase.DOUBLING, Phase.PLAYING} <= phases


def test_every_observation_field_is_classified() -> None:
    """Each int-bearing field reachable from an Observation either holds cards (and is walked
    as such) or is reviewed in NOT_CARDS; one that is neither fails here."""
    unreviewed = []
    for cls in (Observation, *_dataclasses_reachable(Observation)):
        hints = typing.get_type_hints(cls)
        for field in dataclasses.fields(cls):
            annotation = str(field.type)
            if "Card" in annotation or (cls, field.name) in INT_CARD_FIELDS:
                continue
            if int in _flatten(hints[field.name]) and field.name not in NOT_CARDS.get(
                cls.__name__, set()
            ):
                unreviewed.append(f"{cls.__name__}.{field.name}: {annotation}")
    assert not unreviewed
    # The walk reads those fields for real: the positions visit every one of them.
    seen: set[tuple[str, str]] = set()
    for state in random_states(1, 30):
        for seat in (0, None):
            cards_in(observation(state, seat), seen=seen)
    assert {(name, f) for name, fields in NOT_CARDS.items() for f in fields} <= seen


def _dataclasses_reachable(root: type) -> list[type]:
    """The dataclasses that appear in ``root``'s field annotations, transitively."""
    out: list[type] = []
    todo = [root]
    while todo:
        cls = todo.pop()
        hints = typing.get_type_hints(cls)
        for hint in hints.values():
            for arg in _flatten(hint):
                if isinstance(arg, type) and dataclasses.is_dataclass(arg) and arg not in out:
                    if arg is root:
                        continue
                    out.append(arg)
                    todo.append(arg)
    return out


def _flatten(hint: Any) -> list[Any]:
    args = typing.get_args(hint)
    if not args:
        return [hint]
    return [x for a in args for x in _flatten(a)]


def test_bots_take_an_observation_never_a_state() -> None:
    entry_points: list[Callable[..., Any]] = [
        choose_move,
        random_bot.choose,
        easy.choose,
        easy.choose_bid,
        easy.choose_double,
        easy.choose_play,
        normal.choose,
        normal.choose_bid,
        normal.choose_play,
        hard.choose,
        hard.choose_bid,
        hard.choose_double,
        hard.choose_play,
    ]
    for function in entry_points:
        hints = typing.get_type_hints(function)
        params = {n: h for n, h in hints.items() if n != "return"}
        assert Observation in params.values(), function.__qualname__
        for name, hint in params.items():
            assert GameState not in _flatten(hint), (function.__qualname__, name)
        assert list(inspect.signature(function).parameters) == list(params)


def _spy(bot: Any, seen: list[type]) -> Any:
    def spy(*args: Any, **kwargs: Any) -> Any:
        for arg in (*args, *kwargs.values()):
            seen.append(type(arg))
            if isinstance(arg, Observation):
                cards_in(arg)  # raises on a GameState inside
        return bot(*args, **kwargs)

    return spy


def test_bots_are_called_with_an_observation_only() -> None:
    """At run time (selfplay drives every level) a bot receives an Observation and a Random."""
    for level in ("random", "easy"):
        seen: list[type] = []
        bot = _spy(functools.partial(choose_move, level), seen)
        play_match(random.Random(2), [bot] * 4, target=60)
        assert set(seen) == {Observation, random.Random}
    seen = []
    play_match(random.Random(3), [_spy(random_choose, seen)] * 4, target=40)
    assert set(seen) == {Observation, random.Random}


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


def test_every_level_decides_from_any_observation() -> None:
    # bot-observations in scripts/check_source.py (make lint) vouches for the input at every
    # call site; each level must also accept it at every phase.
    for i, state in enumerate(random_states(4, 4)):
        seat = to_act(state)
        obs = observation(state, seat)
        for level in BOT_LEVELS:
            if level in ("normal", "hard") and i % 5:
                continue
            move = choose_move(level, obs, random.Random(i), normal_config=CONFIG, hard_config=HARD)
            assert move in obs.legal_moves or obs.projects_suggested
