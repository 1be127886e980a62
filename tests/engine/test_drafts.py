"""The values the engine makes at every move (games/engine/frozen.py) are immutable: frozen for
the type checker (mypy, which ``make lint`` runs over the whole project, refuses an assignment
to any of their fields), equal, hashed and copied as frozen dataclasses are, and the engine
never changes a state it has handed out. The rules' quick way of making the next state
(state.py ``draft_of`` / ``state_of``) makes exactly the state the dataclass would: every field
set, nothing shared between the copies."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random
import re
import typing
from pathlib import Path
from typing import Any

import pytest
from mypy import api as mypy_api

from games.engine.bidding import Bidding, Contract, Ladder
from games.engine.rules import apply, legal_moves, new_match, start_round, to_act
from games.engine.scoring import RoundResult
from games.engine.selfplay import shuffled_deck
from games.engine.state import GameState, Phase, RoundLog, StateDraft, Trick, draft_of, state_of

ROOT = Path(__file__).resolve().parents[2]
RECORDS = (GameState, Trick, RoundLog, RoundResult, Bidding, Contract, Ladder)


def _distinct_values(record: type) -> dict[str, Any]:
    """A value per field that no other field and no default holds (identity is checked)."""
    return {f.name: object() for f in dataclasses.fields(record)}


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: r.__name__)
def test_init_sets_every_field_to_its_argument(record: type) -> None:
    values = _distinct_values(record)
    made = record(**values)
    assert type(made) is record
    for name, value in values.items():
        assert getattr(made, name) is value, name


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: r.__name__)
def test_init_keeps_the_dataclass_defaults_and_refuses_what_it_would(record: type) -> None:
    fields = dataclasses.fields(record)
    required = {f.name: object() for f in fields if f.default is dataclasses.MISSING}
    made = record(**required)
    for f in fields:
        if f.default is not dataclasses.MISSING:
            assert getattr(made, f.name) == f.default, f.name
    with pytest.raises(TypeError):
        record(**required, not_a_field=1)
    if required:
        with pytest.raises(TypeError):
            record()


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: r.__name__)
def test_records_stay_frozen_equal_hashable_and_copyable(record: type) -> None:
    values = {f.name: i for i, f in enumerate(dataclasses.fields(record))}
    made, again = record(**values), record(**values)
    assert made == again and hash(made) == hash(again)
    name = dataclasses.fields(record)[0].name
    assert copy.deepcopy(made) == made
    assert pickle.loads(pickle.dumps(made)) == made
    assert dataclasses.replace(made, **{name: 99}) == record(**{**values, name: 99})


def test_the_records_are_frozen_for_the_type_checker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """frozen_for_readers (games/engine/frozen.py): mypy, which ``make lint`` runs over the
    whole project, refuses an assignment to a field of any of these records."""
    lines = [f"from {r.__module__} import {r.__name__}" for r in RECORDS]
    for record in RECORDS:
        name = dataclasses.fields(record)[0].name
        lines += [
            f"def set_{record.__name__}(x: {record.__name__}) -> None:",
            f"    x.{name} = x.{name}",
        ]
    source = tmp_path / "writes.py"
    source.write_text("\n".join(lines) + "\n")
    monkeypatch.chdir(ROOT)
    out, _, status = mypy_api.run(
        ["--no-incremental", "--follow-imports=silent", "--config-file=", str(source)]
    )
    assert status == 1, out
    refused = re.findall(r'Property "(\w+)" defined in "(\w+)" is read-only', out)
    assert sorted(refused) == sorted(
        (dataclasses.fields(r)[0].name, r.__name__) for r in RECORDS
    ), out


def test_the_draft_type_is_the_state_s_fields_in_order_with_their_types() -> None:
    """StateDraft is GameState's fields, writable: the same names, order and types."""
    fields = dataclasses.fields(GameState)
    hints = typing.get_type_hints(GameState)
    assert list(typing.get_type_hints(StateDraft)) == [f.name for f in fields]
    assert typing.get_type_hints(StateDraft) == {f.name: hints[f.name] for f in fields}
    assert GameState.__slots__ == tuple(f.name for f in fields)  # type: ignore[attr-defined]


def test_the_state_copy_writes_every_field() -> None:
    """``draft_of`` must copy each of GameState's fields: a state whose fields all hold
    distinct objects comes back identical, field by field, and the copy is its own."""
    state = GameState(**_distinct_values(GameState))
    copied = state_of(draft_of(state))
    assert copied is not state and type(copied) is GameState
    assert copied == state and hash(copied) == hash(state)
    for f in dataclasses.fields(GameState):
        assert getattr(copied, f.name) is getattr(state, f.name), f.name
    changed = draft_of(copied)
    changed.winner = 1
    assert state_of(changed).winner == 1
    assert copied.winner is state.winner  # a draft's change stays in the draft


def test_apply_never_changes_the_state_it_was_given() -> None:
    """Each move's draft is a fresh copy: a whole random match leaves every earlier state as it
    was."""
    rng = random.Random(4)
    state = new_match(dealer=1)
    seen: list[tuple[GameState, GameState]] = []
    while state.phase is not Phase.FINISHED and state.round_no < 30:
        if state.phase is Phase.DEAL:
            state = start_round(state, shuffled_deck(rng))
            continue
        seat = to_act(state)
        assert seat is not None
        seen.append((state, copy.deepcopy(state)))
        state = apply(state, seat, rng.choice(legal_moves(state)))
    assert len(seen) > 100
    for original, snapshot in seen:
        assert original == snapshot
