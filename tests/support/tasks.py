"""Recording the turn tasks a commit enqueues, instead of sending them to a broker."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

BOT = "play_bot_turn"
HARD_BOT = "play_hard_bot_turn"
DEADLINE = "expire_turn"


@dataclass(frozen=True)
class Queued:
    """One enqueued task: which, for which (match id, version), and when it may run."""

    task: str
    args: tuple[Any, ...]
    eta: datetime | None = None
    countdown: float | None = None


def bot_task(match_id: int, version: int) -> Queued:
    return Queued(BOT, (match_id, version))


def hard_bot_task(match_id: int, version: int) -> Queued:
    return Queued(HARD_BOT, (match_id, version))


def deadline_task(match_id: int, version: int, eta: datetime) -> Queued:
    return Queued(DEADLINE, (match_id, version), eta=eta)


class TaskRecorder:
    """Stands in for ``apply_async`` of the turn tasks (``delay`` goes through it too)."""

    def __init__(self) -> None:
        self.queued: list[Queued] = []
        # The match ids sent to the analysis queue (games.tasks.analyse_match).
        self.analyses: list[Any] = []

    def apply_async_for(self, name: str) -> Any:
        def apply_async(
            args: tuple[Any, ...] | None = None,
            kwargs: dict[str, Any] | None = None,
            **options: Any,
        ) -> None:
            assert not kwargs, kwargs  # the tasks take positional ids only
            self.queued.append(
                Queued(
                    name,
                    tuple(args or ()),
                    options.pop("eta", None),
                    options.pop("countdown", None),
                )
            )
            assert not options, f"unexpected task options {options}"

        return apply_async

    def take(self) -> list[Queued]:
        queued, self.queued = self.queued, []
        return queued
