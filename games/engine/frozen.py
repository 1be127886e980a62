"""``frozen_for_readers``: how the engine declares the values it makes at every move.

A frozen dataclass refuses assignment at run time by overriding ``__setattr__``, and so pays for
it whenever it is made: its ``__init__`` sets each field through ``object.__setattr__``, several
times the cost of a plain attribute write. The engine makes a state per move, a trick per four,
a bidding record per call, and the bots' searches make them by the million, so the records made
that often are declared with this decorator instead: type checkers hold them frozen exactly as a
frozen dataclass (mypy refuses an assignment to any of their fields anywhere in the project),
while at run time they are slotted dataclasses, equal and hashed by their fields, whose
``__init__`` writes plain slots. Only the rules write a ``GameState`` after its ``__init__``,
while making the next one (state.py ``StateDraft``); nothing writes the others.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar, dataclass_transform

_T = TypeVar("_T")


@dataclass_transform(frozen_default=True)
def frozen_for_readers(cls: type[_T]) -> type[_T]:
    """A dataclass that type checkers hold frozen, with plain slots at run time."""
    return dataclass(slots=True, unsafe_hash=True)(cls)
