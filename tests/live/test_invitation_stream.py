"""An invitation reaches the invitee's player stream as an inbox event ``invitation`` (the
match id and version, nothing else), and no one else's."""

from __future__ import annotations

from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from games.models import Match
from tests.support.api import match_url
from tests.support.live import Stream, ThreadServer
from tests.support.players import create_match

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_invitee_hears_of_the_invitation_on_the_player_stream(
    stream_server: ThreadServer, make_player: Any
) -> None:
    host, layla = make_player(), make_player()
    mine = Stream(f"{stream_server.url}/ws/v1/me", layla.token)
    hosts = Stream(f"{stream_server.url}/ws/v1/me", host.token)
    created = create_match(host, visibility="private", bots={"1": "easy"})
    url = match_url(created["id"], "/invitations")
    sent = host.client.post(url, {"username": layla.user.username}, format="json")
    assert sent.status_code == 201, sent.content
    message = mine.next()
    assert message == {
        "type": "inbox",
        "event": "invitation",
        "match_id": created["id"],
        "version": Match.objects.get(pk=created["id"]).version,
        "is_my_turn": False,
        "deadline": None,
    }
    # The inviter's stream carries nothing of it.
    try:
        extra = hosts.next(timeout=1.0)
    except (TimeoutError, ConnectionClosed):
        extra = None
    assert extra is None
