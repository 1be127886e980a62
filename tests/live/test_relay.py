"""The table relay (the embedded default): a note exists if and only if its transaction
commits, and beat purges the old ones."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone

from core import events
from games.events import TurnBegan, VersionCommitted
from live import relay
from live.models import LiveEvent
from live.tasks import purge_live_events
from players.events import ChatSent


@pytest.fixture
def table_relay(settings: Any) -> None:
    settings.LIVE = {**settings.LIVE, "RELAY": "table"}


@pytest.mark.django_db(transaction=True)
def test_a_note_is_written_if_and_only_if_its_transaction_commits(table_relay: None) -> None:
    with pytest.raises(RuntimeError), transaction.atomic():
        events.emit(VersionCommitted(match_id=1, version=2))
        raise RuntimeError("rolled back")
    assert not LiveEvent.objects.exists()
    deadline = timezone.now() + timedelta(minutes=5)
    with transaction.atomic():
        events.emit(VersionCommitted(match_id=1, version=3))
        events.emit(
            TurnBegan(match_id=1, version=3, seat=0, user_id=7, deadline=deadline, turn_seconds=60)
        )
    rows = list(LiveEvent.objects.order_by("id").values("kind", "version", "user_id"))
    assert rows == [
        {"kind": "version", "version": 3, "user_id": None},
        {"kind": "your_turn", "version": 3, "user_id": 7},
    ]


@pytest.mark.django_db(transaction=True)
def test_a_chat_note_names_its_message_in_a_field_of_its_own_and_has_no_version(
    table_relay: None,
) -> None:
    # Chat is not a move: the note says which message, and no match version.
    with transaction.atomic():
        events.emit(ChatSent(match_id=1, message_id=41, seat=2, sender_id=7))
        events.emit(VersionCommitted(match_id=1, version=3))
    rows = list(LiveEvent.objects.order_by("id").values("kind", "version", "chat_id"))
    assert rows == [
        {"kind": "chat", "version": None, "chat_id": 41},
        {"kind": "version", "version": 3, "chat_id": None},
    ]
    note = relay.note_make(relay.CHAT, 1, None, chat_id=41)
    assert note["version"] is None and note["chat_id"] == 41


@pytest.mark.django_db
def test_beat_purges_old_notes(table_relay: None) -> None:
    old = LiveEvent.objects.create(kind="version", match_id=1, version=1)
    LiveEvent.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(hours=1))
    LiveEvent.objects.create(kind="version", match_id=1, version=2)
    assert purge_live_events() == 1
    assert list(LiveEvent.objects.values_list("version", flat=True)) == [2]


@pytest.mark.django_db(transaction=True)
def test_connections_opening_at_once_share_one_tail(table_relay: None) -> None:
    """Streams that connect in the same instant each ask the relay to start: one tail must
    serve them all, or every note reaches every connection once per tail (the repeated
    `match_started` that four inboxes opened back to back once saw)."""

    async def open_many() -> list[str]:
        await asyncio.gather(*(relay.start() for _ in range(8)))
        tails = [t for t in asyncio.all_tasks() if t.get_name() == "live-table-tail"]
        names = [t.get_name() for t in tails]
        for tail in tails:
            tail.cancel()
        await asyncio.gather(*tails, return_exceptions=True)
        return names

    assert asyncio.run(open_many()) == ["live-table-tail"]
