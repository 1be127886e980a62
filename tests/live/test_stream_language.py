"""The match stream's view speaks the reader's language as the HTTP view does: an Arabic
account reads its bot seats' names in Arabic on the stream too."""

from __future__ import annotations

from tests.support.live import Stream, ThreadServer
from tests.support.players import create_match, player_register


def test_the_stream_view_names_bots_in_the_account_language(
    stream_server: ThreadServer,
) -> None:
    player = player_register()
    player.user.language = "ar"
    player.user.save(update_fields=["language"])
    created = create_match(player, bots={"1": "easy", "2": "normal"})
    http = player.client.get(f"/api/v1/matches/{created['id']}", HTTP_ACCEPT_LANGUAGE="en")
    stream = Stream(f"{stream_server.url}/ws/v1/matches/{created['id']}", player.token)
    view = stream.until_view(created["version"])[-1]["view"]
    names = [seat["display_name"] for seat in view["seats"]]
    assert names[1:3] == ["بوت سهل", "بوت عادي"]
    assert view == http.json()  # the same body the HTTP view gives this reader
