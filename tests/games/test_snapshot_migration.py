"""games/migrations/0010: the pickled snapshots of an existing database become the engine's
versioned snapshots (and back, for the code before), and a pickle that no longer loads is
rebuilt from the decks and the log."""

from __future__ import annotations

import pickle
import random
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games import engine
from games.models import Match
from games.replay import state_from_log
from tests.games.play import play

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("games", "0009_moderation_moves_to_its_own_app")]


def _raw(match_id: int) -> bytes:
    raw = Match.objects.filter(pk=match_id).values_list("snapshot", flat=True).get()
    assert raw is not None
    return bytes(raw)


def _state(match_id: int) -> engine.GameState:
    state = Match.objects.get(pk=match_id).load_state()
    assert state is not None
    return state


def _past_round(round_no: int) -> Callable[[engine.GameState], bool]:
    return lambda state: state.round_no > round_no


@pytest.mark.slow
def test_pickles_become_versioned_snapshots(table: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # No bot or deadline tasks: only the stored rows matter here.
    monkeypatch.setattr("games.services.state.schedule_on_commit", lambda *args: None)
    ids = []
    for seed in range(3):
        view, _ = table()
        play(view["id"], random.Random(seed), until=_past_round(seed))
        ids.append(view["id"])
    states = {pk: _state(pk) for pk in ids}
    stamps = dict(Match.objects.filter(pk__in=ids).values_list("pk", "updated_at"))

    executor = MigrationExecutor(connection)
    leaves = executor.loader.graph.leaf_nodes()
    executor.migrate(BEFORE)  # back: the snapshots as the code before wrote them
    for pk in ids:
        assert pickle.loads(_raw(pk)) == states[pk]
    # One pickle no longer loads (say, written by a class layout since changed).
    Match.objects.filter(pk=ids[2]).update(snapshot=b"\x80\x05broken")

    MigrationExecutor(connection).migrate(leaves)
    for pk in ids:
        raw = _raw(pk)
        assert engine.snapshot_version(raw) == engine.SNAPSHOT_VERSION
        assert raw == engine.state_to_snapshot(states[pk])
        match = Match.objects.get(pk=pk)
        assert match.load_state() == state_from_log(match) == states[pk]
    # Only the snapshot column was written.
    assert dict(Match.objects.filter(pk__in=ids).values_list("pk", "updated_at")) == stamps
