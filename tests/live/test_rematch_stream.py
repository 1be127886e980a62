"""A rematch called off because a player of the table can no longer play reaches the others'
player streams as an inbox event ``rematch_cancelled`` (the finished match's id and version,
nothing else); the player who was lost hears nothing of it."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from websockets.exceptions import ConnectionClosed

from accounts.models import SanctionKind
from games.models import Match
from moderation import services as moderation
from tests.support.api import match_url
from tests.support.live import Stream, ThreadServer
from tests.support.social import finish_by_resigning

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_others_hear_that_the_rematch_was_called_off(
    stream_server: ThreadServer, table: Any, make_player: Any
) -> None:
    view, players = table()
    finish_by_resigning(players[1], view["id"])
    url = match_url(view["id"], "/rematch")
    assert players[0].client.post(url, format="json").status_code == 201
    streams = [Stream(f"{stream_server.url}/ws/v1/me", p.token) for p in players]
    moderation.sanction_apply(
        moderator=make_player().user,
        user_id=players[0].id,
        kind=SanctionKind.SUSPEND,
        reason="abuse",
        ends_at=timezone.now() + timedelta(days=1),
    )
    expected = {
        "type": "inbox",
        "event": "rematch_cancelled",
        "match_id": view["id"],
        "version": Match.objects.get(pk=view["id"]).version,
        "is_my_turn": False,
        "deadline": None,
    }
    for stream in streams[1:]:
        assert stream.next() == expected
    # The suspended player's stream is closed (4403), with no word of the rematch.
    try:
        got = streams[0].next(timeout=1.0)
    except (TimeoutError, ConnectionClosed):
        got = None
    assert got is None
