"""Blocks on every path to a table (issue 23, part 6): whoever invites, a blocked pair never sits
at one table. An invitation is refused when the invitee and anyone seated at the table, or
already invited to it, block each other (either way); the accept and any join check the table
again under the lock, since seats change in between; a rematch is no way round either. Every
refusal is ``409 user_blocked`` and reads the same whichever of the two blocked the other.

The finding replayed: a blocked user was seated next to the blocker when a third player at the
table invited them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from games.models import Match, MatchStatus, Seat
from players.models import Block, Invitation, Rematch
from tests.support.api import API, assert_problem, fingerprint, match_url
from tests.support.players import Player, create_match
from tests.support.social import community, finish_by_resigning

pytestmark = pytest.mark.django_db

Table = Callable[..., tuple[dict[str, Any], list[Player]]]
DIRECTIONS = ["seated_blocks_invitee", "invitee_blocks_seated"]


def invite(player: Player, match_id: int, username: str) -> Any:
    url = match_url(match_id, "/invitations")
    return player.client.post(url, {"username": username}, format="json")


def accept(player: Player, invitation_id: int) -> Any:
    return player.client.post(f"{API}/invitations/{invitation_id}/accept", format="json")


def block_between(one: Player, other: Player, direction: str) -> None:
    blocker, blocked = (one, other) if direction == DIRECTIONS[0] else (other, one)
    Block.objects.create(blocker=blocker.user, blocked=blocked.user)


def assert_names_nobody(body: dict[str, Any], *players: Player) -> None:
    text = json.dumps(body, ensure_ascii=False)
    for player in players:
        assert player.user.username not in text and player.user.display_name not in text


def seated(match_id: int) -> set[int]:
    rows = Seat.objects.filter(match_id=match_id, user__isnull=False)
    return set(rows.values_list("user_id", flat=True))


def test_a_third_player_cannot_invite_someone_blocked_by_a_seated_player_either_way(
    make_player: Callable[..., Player],
) -> None:
    bodies = []
    for direction in DIRECTIONS:
        host, guest, layla = make_player(), make_player(), make_player()
        created = create_match(host, visibility="public")
        assert guest.client.post(match_url(created["id"], "/join"), {}, format="json").status_code
        block_between(guest, layla, direction)
        before = fingerprint(created["id"]), community()
        body = assert_problem(invite(host, created["id"], layla.user.username), 409, "user_blocked")
        assert (fingerprint(created["id"]), community()) == before
        assert_names_nobody(body, host, guest, layla)
        bodies.append(body)
    assert bodies[0] == bodies[1]  # the answer does not say who blocked whom


@pytest.mark.parametrize("direction", DIRECTIONS)
def test_an_invitee_blocked_by_someone_already_invited_is_refused(
    make_player: Callable[..., Player], direction: str
) -> None:
    host, omar, layla = make_player(), make_player(), make_player()
    created = create_match(host)
    assert invite(host, created["id"], omar.user.username).status_code == 201
    block_between(omar, layla, direction)
    assert_problem(invite(host, created["id"], layla.user.username), 409, "user_blocked")
    assert not Invitation.objects.filter(invitee=layla.user).exists()


@pytest.mark.parametrize("direction", DIRECTIONS)
def test_the_accept_checks_the_table_again_as_it_is_then(
    make_player: Callable[..., Player], direction: str
) -> None:
    """Invited when no one at the table minded; by the accept, a player who blocks the invitee
    (or whom the invitee blocks) has sat down."""
    host, guest, layla = make_player(), make_player(), make_player()
    created = create_match(host, visibility="public")
    sent = invite(host, created["id"], layla.user.username).json()
    assert guest.client.post(match_url(created["id"], "/join"), {}, format="json").status_code
    block_between(guest, layla, direction)
    before = fingerprint(created["id"])
    body = assert_problem(accept(layla, sent["id"]), 409, "user_blocked")
    assert_names_nobody(body, host, guest, layla)
    assert fingerprint(created["id"]) == before
    assert seated(created["id"]) == {host.id, guest.id}
    assert Invitation.objects.get(pk=sent["id"]).status == "pending"


@pytest.mark.parametrize("direction", DIRECTIONS)
def test_a_join_never_seats_a_blocked_pair(
    make_player: Callable[..., Player], direction: str
) -> None:
    host, late = make_player(), make_player()
    created = create_match(host, visibility="public", bots={"1": "easy", "2": "easy"})
    block_between(host, late, direction)
    refused = late.client.post(match_url(created["id"], "/join"), {}, format="json")
    body = assert_problem(refused, 409, "user_blocked")
    assert_names_nobody(body, host, late)
    assert seated(created["id"]) == {host.id}
    assert Match.objects.get(pk=created["id"]).status == MatchStatus.WAITING


@pytest.mark.parametrize("direction", DIRECTIONS)
def test_a_rematch_is_no_way_round_a_block(table: Table, direction: str) -> None:
    view, players = table()
    finish_by_resigning(players[1], view["id"])
    block_between(players[0], players[3], direction)
    url = match_url(view["id"], "/rematch")
    for player in (players[0], players[3]):
        assert_problem(player.client.post(url, format="json"), 409, "user_blocked")
    assert not Rematch.objects.exists()
    # The others may propose; the pair can never complete it, so no table starts.
    assert players[1].client.post(url, format="json").status_code == 201
    assert players[2].client.post(url, format="json").status_code == 200
    assert Match.objects.count() == 1


def test_a_block_made_after_both_accepted_calls_the_rematch_off(table: Table) -> None:
    view, players = table()
    finish_by_resigning(players[1], view["id"])
    url = match_url(view["id"], "/rematch")
    for player in players[:3]:
        assert player.client.post(url, format="json").status_code in (200, 201)
    Block.objects.create(blocker=players[0].user, blocked=players[2].user)
    assert_problem(players[3].client.post(url, format="json"), 409, "rematch_cancelled")
    assert Match.objects.count() == 1
