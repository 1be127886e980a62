"""Running tournaments in-process: the services called as the API and beat would, with every
``on_commit`` callback run (an advance's task inline) and the turn tasks recorded."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any, TypeVar

import pytest

from .players import Player, player_register

T = TypeVar("T")


class TournamentDriver:
    def __init__(self, capture: Any, clock: Any, monkeypatch: pytest.MonkeyPatch) -> None:
        from tournaments import tasks
        from tournaments.services import rounds

        self._capture = capture
        self.clock = clock
        # The advance task runs where it was asked for, after the commit that asked.
        monkeypatch.setattr(
            tasks.advance_tournament, "delay", lambda tid: rounds.tournament_advance(tid)
        )

    @contextmanager
    def committed(self) -> Iterator[None]:
        with self._capture(execute=True):
            yield

    def do(self, fn: Callable[..., T], **kwargs: Any) -> T:
        with self.committed():
            return fn(**kwargs)

    def create(self, creator: Player, **options: Any) -> Any:
        from tournaments.services.registration import tournament_create

        fields: dict[str, Any] = {
            "name": "Cup",
            "format": "knockout",
            "public": True,
            "capacity": 64,
            "starts_at": self.clock.after(3600),
            "round_seconds": 86400,
        }
        fields.update(options)
        return self.do(tournament_create, creator=creator.user, **fields)

    def team(self, tournament: Any) -> tuple[Player, Player]:
        from tournaments.services.registration import entry_accept, entry_create

        a, b = player_register(), player_register()
        entry = self.do(
            entry_create,
            tournament_id=tournament.pk,
            user=a.user,
            partner=b.user,
            code=tournament.invite_code or None,
        )
        self.do(entry_accept, tournament_id=tournament.pk, entry_id=entry.pk, user=b.user)
        return a, b

    def start(self, tournament: Any) -> None:
        from tournaments.services.rounds import tournament_start

        self.clock.at = max(self.clock.at, tournament.starts_at + timedelta(seconds=1))
        assert self.do(tournament_start, tournament_id=tournament.pk)

    def resign(self, match_id: int, loser: Any) -> None:
        from games.services import match_resign

        self.do(match_resign, match_id=match_id, user=loser)
