"""live/0002: a chat note still waiting in the table relay when the release changes keeps its
message, now in ``chat_id`` (it was in ``version``), and loses the version it never had; the
way back restores the old form."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from live.models import LiveEvent

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("live", "0001_initial")]
AFTER = [("live", "0002_live_event_chat_id")]


def _rows() -> list[tuple[str, int | None, int | None]]:
    return list(LiveEvent.objects.order_by("id").values_list("kind", "version", "chat_id"))


def test_pending_chat_notes_move_their_message_id_to_chat_id_and_back() -> None:
    executor = MigrationExecutor(connection)
    leaves = executor.loader.graph.leaf_nodes()
    old = executor.migrate(BEFORE).apps
    OldEvent = old.get_model("live", "LiveEvent")
    OldEvent.objects.create(kind="chat", match_id=1, version=41)
    OldEvent.objects.create(kind="version", match_id=1, version=3)

    MigrationExecutor(connection).migrate(AFTER)
    assert _rows() == [("chat", None, 41), ("version", 3, None)]

    back = MigrationExecutor(connection).migrate(BEFORE).apps
    rows = back.get_model("live", "LiveEvent").objects.order_by("id")
    assert list(rows.values_list("kind", "version")) == [("chat", 41), ("version", 3)]
    MigrationExecutor(connection).migrate(leaves)
