"""Invitations: a seated player of a waiting match with a free seat invites a user by name;
the invitee sees it in their list (and is told by push and on the player stream: see
tests/live/test_invitation_stream.py), accepts (seated, no invite code) or declines. Blocked
players, either way, cannot invite each other, and the answer does not tell who blocked."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from games.models import Match
from live.push.models import Notification
from live.push.payloads import payload_for
from players.models import Block, Invitation
from tests.support.api import (
    API,
    CARD_TOKEN,
    assert_field_errors,
    assert_problem,
    fingerprint,
    match_url,
    view_of,
)
from tests.support.players import Player, create_match
from tests.support.social import GATE, community, erase, gate_client, me

pytestmark = pytest.mark.django_db

INBOX = me("/invitations")


def invite(player: Player, match_id: int, username: str) -> Any:
    url = match_url(match_id, "/invitations")
    return player.client.post(url, {"username": username}, format="json")


def answer(player: Player, invitation_id: int, verb: str) -> Any:
    return player.client.post(f"{API}/invitations/{invitation_id}/{verb}", format="json")


def test_an_invitee_accepts_and_sits_at_a_private_table_without_the_code(
    make_player: Callable[..., Player],
) -> None:
    host, layla = make_player(), make_player()
    created = create_match(host, visibility="private", bots={"1": "easy"})
    sent = invite(host, created["id"], layla.user.username)
    assert sent.status_code == 201, sent.content
    body = sent.json()
    assert body["status"] == "pending" and body["match_id"] == created["id"]
    assert body["inviter"] == {
        "username": host.user.username,
        "display_name": host.user.display_name,
        "avatar": None,
    }
    assert body["invitee"]["username"] == layla.user.username
    listed = layla.client.get(INBOX).json()["results"]
    assert listed == [body]
    assert host.client.get(INBOX).json()["results"] == []  # sent, not received
    accepted = answer(layla, body["id"], "accept")
    assert accepted.status_code == 200, accepted.content
    view = accepted.json()
    assert view["my_seat"] == 2 and view["status"] == "waiting"
    assert view["round"] is None
    assert Invitation.objects.get(pk=body["id"]).status == "accepted"
    assert layla.client.get(INBOX).json()["results"] == []
    assert_problem(answer(layla, body["id"], "accept"), 409, "invitation_not_pending")


def test_the_invitee_filling_the_fourth_seat_starts_the_match(
    make_player: Callable[..., Player],
) -> None:
    host, layla = make_player(), make_player()
    created = create_match(host, bots={"1": "easy", "2": "easy"})
    sent = invite(host, created["id"], layla.user.username).json()
    view = answer(layla, sent["id"], "accept").json()
    assert view["status"] == "active" and view["my_seat"] == 3
    assert len(view["round"]["hand"]) in (5, 8)  # the invitee's own hand only


def test_a_declined_invitation_is_answered_once(make_player: Callable[..., Player]) -> None:
    host, layla = make_player(), make_player()
    created = create_match(host)
    sent = invite(host, created["id"], layla.user.username).json()
    declined = answer(layla, sent["id"], "decline")
    assert declined.status_code == 200 and declined.json()["status"] == "declined"
    assert declined.json()["responded_at"]
    before = fingerprint(created["id"]), community()
    assert_problem(answer(layla, sent["id"], "accept"), 409, "invitation_not_pending")
    assert_problem(answer(layla, sent["id"], "decline"), 409, "invitation_not_pending")
    assert (fingerprint(created["id"]), community()) == before
    # Declined, the player may be invited again.
    assert invite(host, created["id"], layla.user.username).status_code == 201


def test_a_table_that_filled_meanwhile_refuses_the_invitee(
    make_player: Callable[..., Player],
) -> None:
    host, layla, quick = make_player(), make_player(), make_player()
    created = create_match(host, visibility="public", bots={"1": "easy", "2": "easy"})
    sent = invite(host, created["id"], layla.user.username).json()
    assert (
        quick.client.post(match_url(created["id"], "/join"), {}, format="json").status_code == 200
    )
    before = fingerprint(created["id"]), community()
    assert_problem(answer(layla, sent["id"], "accept"), 409, "match_full")
    assert (fingerprint(created["id"]), community()) == before
    assert layla.client.get(INBOX).json()["results"] == []  # the match no longer waits


def test_someone_else_s_invitation_is_not_revealed(make_player: Callable[..., Player]) -> None:
    host, layla, nosy = make_player(), make_player(), make_player()
    created = create_match(host)
    sent = invite(host, created["id"], layla.user.username).json()
    before = fingerprint(created["id"]), community()
    for who in (nosy, host):
        for verb in ("accept", "decline"):
            assert_problem(answer(who, sent["id"], verb), 404, "invitation_not_found")
    assert_problem(answer(layla, 999999, "accept"), 404, "invitation_not_found")
    assert_problem(answer(layla, "x", "accept"), 404, "invitation_not_found")  # type: ignore[arg-type]
    assert (fingerprint(created["id"]), community()) == before


def test_refusals_to_invite_have_their_codes_and_change_nothing(
    make_player: Callable[..., Player], table: Callable[..., Any]
) -> None:
    host, guest, layla, gone = (make_player() for _ in range(4))
    created = create_match(host, visibility="public")
    guest.client.post(match_url(created["id"], "/join"), {}, format="json")
    erase(gone)
    match_id = created["id"]
    assert invite(host, match_id, layla.user.username).status_code == 201
    before = fingerprint(match_id), community()
    for name in (host.user.username, host.user.username.upper()):  # usernames ignore case
        refused = assert_problem(invite(host, match_id, name), 422, "cannot_invite_self")
        assert [e["field"] for e in refused["errors"]] == ["username"]
    assert_problem(invite(host, match_id, "nobody-at-all"), 404, "user_not_found")
    assert_problem(invite(host, match_id, gone.user.username), 404, "user_not_found")
    assert_problem(invite(host, match_id, guest.user.username), 409, "invitee_seated")
    # One open invitation per player and table, whoever sent it.
    assert_problem(invite(guest, match_id, layla.user.username), 409, "already_invited")
    assert_field_errors(
        host.client.post(match_url(match_id, "/invitations"), {}, format="json"),
        {"username": "required"},
    )
    assert (fingerprint(match_id), community()) == before
    view, players = table(visibility="public")
    assert_problem(invite(players[0], view["id"], layla.user.username), 409, "match_not_waiting")


@pytest.mark.parametrize("visibility", ["public", "private"])
def test_an_outsider_cannot_invite(make_player: Callable[..., Player], visibility: str) -> None:
    host, outsider, layla = make_player(), make_player(), make_player()
    created = create_match(host, visibility=visibility)
    before = fingerprint(created["id"]), community()
    status, code = (404, "not_found") if visibility == "private" else (403, "not_a_player")
    assert_problem(invite(outsider, created["id"], layla.user.username), status, code)
    assert (fingerprint(created["id"]), community()) == before


@pytest.mark.parametrize("who_blocks", ["inviter", "invitee"])
def test_blocked_players_cannot_invite_each_other_and_the_answer_hides_who_blocked(
    make_player: Callable[..., Player], who_blocks: str
) -> None:
    host, layla = make_player(), make_player()
    blocker, blocked = (host, layla) if who_blocks == "inviter" else (layla, host)
    Block.objects.create(blocker=blocker.user, blocked=blocked.user)
    mine, theirs = create_match(host), create_match(layla)
    before = community()
    one = assert_problem(invite(host, mine["id"], layla.user.username), 409, "user_blocked")
    other = assert_problem(invite(layla, theirs["id"], host.user.username), 409, "user_blocked")
    assert one == other
    assert community() == before


def test_the_invitee_s_device_gets_a_push_row_with_no_card_and_no_name(
    make_player: Callable[..., Player],
) -> None:
    host, layla = make_player(), make_player()
    answer_ = layla.client.post(
        f"{API}/me/devices", {"platform": "fcm", "token": "layla-phone"}, format="json"
    )
    assert answer_.status_code in (200, 201), answer_.content
    created = create_match(host, bots={"1": "easy"})
    invite(host, created["id"], layla.user.username)
    row = Notification.objects.get(user=layla.user)
    assert (row.kind, row.match_id) == ("invitation", created["id"])
    assert row.version == Match.objects.get(pk=created["id"]).version
    payload = payload_for(row, "en")
    assert payload["event"] == "invitation" and payload["match_id"] == created["id"]
    text = json.dumps(payload, ensure_ascii=False)
    assert CARD_TOKEN.search(text) is None
    assert host.user.username not in text
    assert not Notification.objects.filter(user=host.user).exists()


def test_the_list_shows_only_open_invitations_to_waiting_tables(
    make_player: Callable[..., Player],
) -> None:
    hosts = [make_player() for _ in range(3)]
    layla = make_player()
    ids = []
    for host in hosts:
        created = create_match(host, visibility="public")
        ids.append(invite(host, created["id"], layla.user.username).json()["id"])
    # The last host leaves: that table is aborted and its invitation is no longer shown.
    hosts[-1].client.post(match_url(created["id"], "/leave"), format="json")
    page = layla.client.get(INBOX, {"page_size": 1}).json()
    assert len(page["results"]) == 1 and page["next"]
    rest = layla.client.get(page["next"]).json()
    assert sorted(i["id"] for i in page["results"] + rest["results"]) == ids[:2]
    assert view_of(hosts[0], Invitation.objects.get(pk=ids[0]).match_id)["status"] == "waiting"


@pytest.mark.parametrize("persona", list(GATE))
def test_gated_callers_get_nothing_and_change_nothing(
    make_player: Callable[..., Player], persona: str
) -> None:
    host, layla, omar = make_player(), make_player(), make_player()
    created = create_match(host)
    sent = invite(host, created["id"], layla.user.username).json()
    invitee = gate_client(persona, layla)
    status, code = GATE[persona]
    before = fingerprint(created["id"]), community()
    assert_problem(invitee.get(INBOX), status, code)
    for verb in ("accept", "decline"):
        url = f"{API}/invitations/{sent['id']}/{verb}"
        assert_problem(invitee.post(url, format="json"), status, code)
    inviter = gate_client(persona, host)
    url = match_url(created["id"], "/invitations")
    assert_problem(inviter.post(url, {"username": omar.user.username}, format="json"), status, code)
    assert (fingerprint(created["id"]), community()) == before
