"""Who may open a stream: tokens, tickets, sanctions, visibility, the per-user cap (close
codes per api.md "Live delivery")."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import AuthToken, Sanction, hash_token
from live.models import WsTicket
from tests.support.live import Stream, ThreadServer
from tests.support.players import PASSWORD, Player, create_match, player_register

pytestmark = pytest.mark.django_db(transaction=True)


def _ban(player: Player) -> None:
    staff = player_register()
    Sanction.objects.create(user=player.user, kind="ban", reason="test", created_by=staff.user)


def _ticket(player: Player) -> str:
    response = player.client.post("/api/v1/auth/ws-ticket")
    assert response.status_code == 201, response.content
    body = response.json()
    assert set(body) == {"ticket", "expires_at"}
    return str(body["ticket"])


def test_anonymous_and_bad_tokens_are_4401(stream_server: ThreadServer) -> None:
    player = player_register()
    match = create_match(player)
    for path in (f"/ws/v1/matches/{match['id']}", "/ws/v1/me"):
        assert Stream(stream_server.url + path).close_code() == 4401
        assert Stream(stream_server.url + path, token="not-a-token").close_code() == 4401
        assert Stream(stream_server.url + path + "?ticket=nope").close_code() == 4401


def test_a_revoked_token_is_refused_and_its_open_connections_close(
    stream_server: ThreadServer, settings: Any
) -> None:
    settings.LIVE = {**settings.LIVE, "RECHECK_SECONDS": 0.2}
    player = player_register()
    match = create_match(player)
    open_match = Stream(f"{stream_server.url}/ws/v1/matches/{match['id']}", player.token)
    assert open_match.next()["type"] == "view"
    open_me = Stream(f"{stream_server.url}/ws/v1/me", player.token)
    assert player.client.post("/api/v1/auth/logout").status_code in (200, 204)
    assert open_match.close_code() == 4401
    assert open_me.close_code() == 4401
    assert Stream(f"{stream_server.url}/ws/v1/me", player.token).close_code() == 4401


def test_a_sanctioned_account_is_4403_and_its_connections_close(
    stream_server: ThreadServer, settings: Any
) -> None:
    settings.LIVE = {**settings.LIVE, "RECHECK_SECONDS": 0.2}
    player = player_register()
    match = create_match(player)
    stream = Stream(f"{stream_server.url}/ws/v1/matches/{match['id']}", player.token)
    assert stream.next()["type"] == "view"
    _ban(player)
    assert stream.close_code() == 4403
    assert Stream(f"{stream_server.url}/ws/v1/me", player.token).close_code() == 4403


def test_a_private_match_is_4404_to_outsiders_like_a_missing_one(
    stream_server: ThreadServer,
) -> None:
    owner, outsider = player_register(), player_register()
    private = create_match(owner, visibility="private")
    public = create_match(owner, visibility="public")
    base = f"{stream_server.url}/ws/v1/matches"
    assert Stream(f"{base}/{private['id']}", outsider.token).close_code() == 4404
    assert Stream(f"{base}/999999", outsider.token).close_code() == 4404
    assert Stream(f"{base}/abc", outsider.token).close_code() == 4404
    assert Stream(f"{base}/{private['id']}?since=x", owner.token).close_code() == 4400
    # An outsider reads a public match; the seated owner reads the private one.
    view = Stream(f"{base}/{public['id']}", outsider.token).next()
    assert view["type"] == "view" and view["view"]["my_seat"] is None
    mine = Stream(f"{base}/{private['id']}", owner.token).next()
    assert mine["view"]["my_seat"] == 0
    assert mine["view"] == owner.client.get(f"/api/v1/matches/{private['id']}").json()


def test_tickets_are_single_use_short_lived_and_bound_to_their_user(
    stream_server: ThreadServer,
) -> None:
    player, other = player_register(), player_register()
    match = create_match(player, visibility="private")
    url = f"{stream_server.url}/ws/v1/matches/{match['id']}"
    ticket = _ticket(player)
    assert WsTicket.objects.get().key_hash == hash_token(ticket)  # stored hashed only
    first = Stream(f"{url}?ticket={ticket}")
    assert first.next()["view"]["my_seat"] == 0
    assert Stream(f"{url}?ticket={ticket}").close_code() == 4401  # spent
    # Bound to its user: another player's ticket cannot open a private match it cannot read.
    assert Stream(f"{url}?ticket={_ticket(other)}").close_code() == 4404
    late = _ticket(player)
    WsTicket.objects.filter(key_hash=hash_token(late)).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    assert Stream(f"{url}?ticket={late}").close_code() == 4401
    # A ticket of a token revoked since is no good either.
    revoked = _ticket(player)
    AuthToken.objects.filter(user=player.user).update(revoked_at=timezone.now())
    assert Stream(f"{url}?ticket={revoked}").close_code() == 4401


def test_the_ticket_endpoint_needs_a_bearer_token(anon: Any) -> None:
    answer = anon.post("/api/v1/auth/ws-ticket")
    assert answer.status_code == 401
    assert answer["Content-Type"].startswith("application/problem+json")


def test_too_many_connections_is_4429(stream_server: ThreadServer, settings: Any) -> None:
    settings.LIVE = {**settings.LIVE, "MAX_CONNECTIONS_PER_USER": 2}
    player = player_register()
    match = create_match(player)
    url = f"{stream_server.url}/ws/v1/matches/{match['id']}"
    kept = [Stream(url, player.token), Stream(url, player.token)]
    for stream in kept:
        assert stream.next()["type"] == "view"  # authenticated and counted
    assert Stream(f"{stream_server.url}/ws/v1/me", player.token).close_code(timeout=3) == 4429
    kept[0].close()
    # A closed connection frees its place.
    assert Stream(url, player.token).next()["type"] == "view"


def test_a_deleted_accounts_match_stream_closes_4401_not_4404(stream_server: ThreadServer) -> None:
    """Deleting the account hands the seat of a private match to a bot in the same commit, so
    the stream's next pass no longer sees the match; it must still say why: the token is gone
    (4401), not that the match is hidden (4404). The periodic re-check is left slow so that
    the pass, not the re-check, closes the stream."""
    player = player_register()
    match = create_match(player, visibility="private", bots={"1": "easy", "2": "easy", "3": "easy"})
    stream = Stream(f"{stream_server.url}/ws/v1/matches/{match['id']}", player.token)
    assert stream.next()["type"] == "view"
    answer = player.client.delete("/api/v1/me", {"password": PASSWORD}, format="json")
    assert answer.status_code == 204, answer.content
    assert stream.close_code() == 4401
