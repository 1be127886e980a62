"""A small in-process event bus: what a committed change means, for whoever listens.

Services emit domain events (plain frozen dataclasses, defined by the app that emits them)
inside their write transaction, at the point where the change happens. Listeners are
registered by higher layers, which the services cannot import (the live stream and push
notifications sit above games and moderation). They run synchronously, inside that
transaction: a notification written to an outbox commits or rolls back with the change that
caused it, and work that must wait for the commit (publishing to a stream) registers its own
``transaction.on_commit``. A listener must not be slow; it must not talk to the network.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any, TypeVar

E = TypeVar("E")

_listeners: defaultdict[type[Any], list[Callable[[Any], None]]] = defaultdict(list)


def subscribe(event_type: type[E], listener: Callable[[E], None]) -> None:
    """Call ``listener`` with every event of ``event_type`` emitted from now on (once, however
    often the same listener is subscribed: an app's ``ready`` may run more than once)."""
    if listener not in _listeners[event_type]:
        _listeners[event_type].append(listener)


def unsubscribe(event_type: type[E], listener: Callable[[E], None]) -> None:
    if listener in _listeners[event_type]:
        _listeners[event_type].remove(listener)


def emit(event: object) -> None:
    """Hand ``event`` to each listener of its type, in the order they subscribed. A listener's
    exception propagates: it rolls back the transaction, as any other failed write would."""
    for listener in list(_listeners[type(event)]):
        listener(event)
