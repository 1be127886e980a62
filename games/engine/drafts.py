"""Building frozen records fast: drafts with the same slots, sealed by a class swap.

The engine's values are frozen, slotted dataclasses, so nothing can change a state once it
exists and a refused move changes nothing. A frozen dataclass pays for that when it is made:
its ``__init__`` sets every field through ``object.__setattr__``, one call per field, and
``dataclasses.replace`` builds a keyword dictionary on top. The engine makes a new state per
move, and the bots' searches play it forward millions of times, so the records it makes often
are built as drafts:

* a draft class (``draft_class``) has the record class's ``__slots__`` in the same order and
  nothing else, which is what CPython asks of two classes before it lets an object change from
  one to the other. A draft's fields are written with plain attribute writes, CPython's fast
  path; ``seal`` then changes its class to the record's, and from then on it is an ordinary
  instance of the frozen dataclass (equal, hashed, printed and copied as one; an assignment
  raises ``FrozenInstanceError``). A draft must have every slot written before it is sealed.
* ``fast_init`` gives a record class an ``__init__`` with the dataclass's own signature that
  works the same way (the instance turns into a draft, takes its fields and turns back), so
  every ``Record(...)`` call is cheaper. Type checkers still see the dataclass's ``__init__``.

Both are checked by the tests: every record built either way equals the one the dataclass's
own ``__init__`` builds.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

new_draft = object.__new__

_Record = TypeVar("_Record", bound=type)


def draft_class(record: type) -> type:
    """The writable twin of the frozen, slotted dataclass ``record``."""
    slots = record.__dict__.get("__slots__")
    if not dataclasses.is_dataclass(record) or not isinstance(slots, tuple) or not slots:
        raise TypeError(f"{record.__name__} is not a slotted dataclass")
    namespace: dict[str, Any] = {"__slots__": slots, "__module__": record.__module__}
    # The record's properties too, so the engine's rules read a draft as they read a record
    # (methods are not part of an object's layout: the class swap still holds).
    namespace.update(
        (name, value) for name, value in vars(record).items() if isinstance(value, property)
    )
    return type(f"{record.__name__}Draft", (), namespace)


def seal(draft: Any, record: type) -> Any:
    """``draft``, now an instance of ``record`` (its draft class's frozen twin)."""
    draft.__class__ = record
    return draft


def fast_init(record: _Record) -> _Record:
    """Class decorator, under ``@dataclass(frozen=True, slots=True)``: the same ``__init__``
    (parameters, defaults, order), setting the fields as a draft does."""
    draft = draft_class(record)
    namespace: dict[str, Any] = {
        "_draft": draft,
        "_record": record,
        "_turn_into": object.__setattr__,
    }
    params: list[str] = []
    for field in dataclasses.fields(record):
        if not field.init or field.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{record.__name__}.{field.name}: only plain fields are supported")
        if field.default is dataclasses.MISSING:
            params.append(field.name)
        else:
            namespace[f"_default_{field.name}"] = field.default
            params.append(f"{field.name}=_default_{field.name}")
    names = [field.name for field in dataclasses.fields(record)]
    source = "\n".join(
        [
            f"def __init__(self, {', '.join(params)}):",
            # The frozen class refuses attribute writes: become the draft, write, become the
            # record again.
            "    _turn_into(self, '__class__', _draft)",
            *(f"    self.{name} = {name}" for name in names),
            "    self.__class__ = _record",
        ]
    )
    exec(source, namespace)  # how dataclasses itself makes __init__ from the field list
    init = namespace["__init__"]
    init.__qualname__ = f"{record.__qualname__}.__init__"
    record.__init__ = init  # type: ignore[misc]
    return record
