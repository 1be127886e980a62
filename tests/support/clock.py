"""A clock a test sets by hand, in place of ``core.clock.now`` (the one the turn rules read)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

# Any fixed instant will do; a round one makes failure messages easy to read.
START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


@dataclass
class FakeClock:
    at: datetime = START

    def now(self) -> datetime:
        return self.at

    def advance(self, seconds: float) -> datetime:
        self.at += timedelta(seconds=seconds)
        return self.at

    def after(self, seconds: float) -> datetime:
        """The instant ``seconds`` from now, without moving the clock."""
        return self.at + timedelta(seconds=seconds)
