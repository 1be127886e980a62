"""A deleted account leaves nothing behind in the players' features (issue 12, point 1):
follows and blocks either way go, open invitations and a waiting ticket are cancelled, and a
pending rematch cannot seat the erased account in a new match."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from players.models import Block, Follow, Invitation, Rematch, Ticket
from tests.support.api import API, match_url
from tests.support.players import PASSWORD, Player, create_match
from tests.support.social import finish_by_resigning, me

pytestmark = pytest.mark.django_db

Table = Callable[..., tuple[dict[str, Any], list[Player]]]


def ok(response: Any, status: int) -> Any:
    assert response.status_code == status, response.content
    return response


def test_follows_blocks_invitations_tickets_and_rematches_of_a_deleted_account_go(
    table: Table, make_player: Callable[..., Player]
) -> None:
    view, players = table()
    leaving, friend, avoided, host = players[0], make_player(), make_player(), make_player()
    ok(leaving.client.post(me("/friends"), {"username": friend.user.username}, format="json"), 201)
    ok(friend.client.post(me("/friends"), {"username": leaving.user.username}, format="json"), 201)
    ok(leaving.client.post(me("/blocks"), {"username": avoided.user.username}, format="json"), 201)
    waiting = create_match(host, visibility="public")["id"]
    invite = {"username": leaving.user.username}
    ok(host.client.post(match_url(waiting, "/invitations"), invite, format="json"), 201)
    finish_by_resigning(players[1], view["id"])
    ok(leaving.client.post(match_url(view["id"], "/rematch"), format="json"), 201)
    ok(
        leaving.client.post(
            f"{API}/matchmaking", {"ruleset": "gamerules", "turn_seconds": 30}, format="json"
        ),
        201,
    )
    others_follow = Follow.objects.exclude(follower=leaving.user).exclude(followed=leaving.user)

    ok(leaving.client.delete(f"{API}/me", {"password": PASSWORD}, format="json"), 204)

    gone = leaving.user.pk
    assert not Follow.objects.filter(follower_id=gone).exists()
    assert not Follow.objects.filter(followed_id=gone).exists()
    assert not Block.objects.filter(blocker_id=gone).exists()
    assert list(Follow.objects.all()) == list(others_follow)
    assert set(Invitation.objects.filter(invitee_id=gone).values_list("status", flat=True)) == {
        "cancelled"
    }
    assert set(Ticket.objects.filter(user_id=gone).values_list("status", flat=True)) == {
        "cancelled"
    }
    # The others accept: the proposal was called off, no match seats the erased account.
    for player in players[1:]:
        answer = player.client.post(match_url(view["id"], "/rematch"), format="json")
        assert answer.status_code == 409 and answer.json()["code"] == "rematch_cancelled"
    assert Rematch.objects.get(match_id=view["id"]).new_match_id is None
