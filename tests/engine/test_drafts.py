"""The engine's fast construction of frozen records (games/engine/drafts.py) makes exactly the
records the dataclasses would: every field set, nothing shared between drafts, frozen after."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random
from typing import Any

import pytest

from games.engine.bidding import Bidding, Contract, Ladder
from games.engine.drafts import draft_class, fast_init, new_draft, seal
from games.engine.scoring import RoundResult
from games.engine.selfplay import shuffled_deck
from games.engine.state import (
    GameState,
    Phase,
    RoundLog,
    Trick,
    _draft_of,
    apply,
    legal_moves,
    new_match,
    start_round,
    to_act,
)

FAST_RECORDS = (GameState, Trick, RoundLog, RoundResult, Bidding, Contract, Ladder)


def _distinct_values(record: type) -> dict[str, Any]:
    """A value per field that no other field and no default holds (identity is checked)."""
    return {f.name: object() for f in dataclasses.fields(record)}


@pytest.mark.parametrize("record", FAST_RECORDS, ids=lambda r: r.__name__)
def test_fast_init_sets_every_field_to_its_argument(record: type) -> None:
    values = _distinct_values(record)
    made = record(**values)
    assert type(made) is record
    for name, value in values.items():
        assert getattr(made, name) is value, name


@pytest.mark.parametrize("record", FAST_RECORDS, ids=lambda r: r.__name__)
def test_fast_init_keeps_the_dataclass_defaults_and_refuses_what_it_would(record: type) -> None:
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


@pytest.mark.parametrize("record", FAST_RECORDS, ids=lambda r: r.__name__)
def test_records_stay_frozen_equal_hashable_and_copyable(record: type) -> None:
    values = {f.name: i for i, f in enumerate(dataclasses.fields(record))}
    made, again = record(**values), record(**values)
    assert made == again and hash(made) == hash(again)
    name = dataclasses.fields(record)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(made, name, 99)
    with pytest.raises(dataclasses.FrozenInstanceError):
        delattr(made, name)
    assert copy.deepcopy(made) == made
    assert pickle.loads(pickle.dumps(made)) == made
    assert dataclasses.replace(made, **{name: 99}) == record(**{**values, name: 99})


def test_fast_init_refuses_what_it_cannot_build() -> None:
    @dataclasses.dataclass(frozen=True)
    class NoSlots:
        x: int

    with pytest.raises(TypeError):
        fast_init(NoSlots)

    @dataclasses.dataclass(frozen=True, slots=True)
    class Factory:
        x: list[int] = dataclasses.field(default_factory=list)

    with pytest.raises(TypeError):
        fast_init(Factory)


def test_a_sealed_draft_is_the_record_and_frozen() -> None:
    draft: Any = new_draft(draft_class(Trick))
    draft.leader, draft.cards, draft.winner, draft.abnat = 1, (0, 1, 2, 3), 2, 25
    trick = seal(draft, Trick)
    assert type(trick) is Trick
    assert trick == Trick(1, (0, 1, 2, 3), 2, 25)
    with pytest.raises(dataclasses.FrozenInstanceError):
        trick.abnat = 0  # type: ignore[misc]


def test_the_state_copy_writes_every_field() -> None:
    """``_draft_of`` must copy each of GameState's fields: a state whose fields all hold
    distinct objects comes back identical, field by field."""
    state = GameState(**_distinct_values(GameState))
    copied = seal(_draft_of(state), GameState)
    assert copied is not state
    for f in dataclasses.fields(GameState):
        assert getattr(copied, f.name) is getattr(state, f.name), f.name


def test_apply_never_changes_the_state_it_was_given() -> None:
    """Drafts are fresh objects: a whole random match leaves every earlier state as it was."""
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
