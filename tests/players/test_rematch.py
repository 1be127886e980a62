"""A rematch: any seated human of a finished match proposes, every human accepts, and the same
table (same users in the same seats, bots of the same levels, same options) starts a new
match with the first dealer rotated by one. The proposal expires; one per finished match."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games.models import Match, Seat
from tests.support.api import assert_problem, fingerprint, match_url
from tests.support.clock import FakeClock
from tests.support.players import Player, create_match
from tests.support.social import GATE, community, finish_by_resigning, gate_client

pytestmark = pytest.mark.django_db

Table = Callable[..., tuple[dict[str, Any], list[Player]]]


def rematch(player: Player, match_id: int) -> Any:
    return player.client.post(match_url(match_id, "/rematch"), format="json")


def finished(table: Table, **options: Any) -> tuple[int, list[Player]]:
    view, players = table(**options)
    finish_by_resigning(players[1], view["id"])
    return view["id"], players


def seats_of(match_id: int) -> list[tuple[int, int | None, str]]:
    rows = Seat.objects.filter(match_id=match_id).order_by("index")
    return [(s.index, s.user_id, s.bot) for s in rows]


@pytest.mark.parametrize("visibility", ["public", "private"])
def test_when_every_human_accepts_the_same_table_starts_with_the_dealer_rotated(
    table: Table, visibility: str
) -> None:
    old_id, players = finished(table, visibility=visibility, target=41, turn_seconds=45)
    proposed = rematch(players[2], old_id)
    assert proposed.status_code == 201, proposed.content
    body = proposed.json()
    assert body["status"] == "pending" and body["proposed_by_seat"] == 2
    assert body["accepted_seats"] == [2] and body["waiting_for_seats"] == [0, 1, 3]
    assert body["new_match_id"] is None and body["expires_at"]
    for seat in (0, 3):
        answer = rematch(players[seat], old_id)
        assert answer.status_code == 200 and answer.json()["new_match_id"] is None
    # Accepting twice changes nothing.
    assert rematch(players[0], old_id).json()["accepted_seats"] == [0, 2, 3]
    last = rematch(players[1], old_id)
    assert last.status_code == 200, last.content
    done = last.json()
    assert done["status"] == "started" and done["waiting_for_seats"] == []
    new_id = done["new_match_id"]
    old, new = Match.objects.get(pk=old_id), Match.objects.get(pk=new_id)
    assert new.status == "active"
    assert new.first_dealer == (old.first_dealer + 1) % 4
    assert (new.ruleset, new.target, new.turn_seconds, new.visibility) == (
        old.ruleset,
        41,
        45,
        visibility,
    )
    assert seats_of(new_id) == seats_of(old_id)
    # Every player sees the new match as their own seat; GET tells of it too.
    for seat, player in enumerate(players):
        view = player.client.get(match_url(new_id)).json()
        assert view["my_seat"] == seat and view["round"]["dealer"] == new.first_dealer
        got = player.client.get(match_url(old_id, "/rematch")).json()
        assert got == done


def test_bots_stay_bots_of_the_same_level_and_a_lone_human_starts_it_at_once(
    make_player: Callable[..., Player],
) -> None:
    host = make_player()
    created = create_match(host, bots={"1": "easy", "2": "normal", "3": "hard"})
    finish_by_resigning(host, created["id"])
    answer = rematch(host, created["id"])
    assert answer.status_code == 201, answer.content
    new_id = answer.json()["new_match_id"]
    assert new_id is not None
    assert seats_of(new_id) == [
        (0, host.id, ""),
        (1, None, "easy"),
        (2, None, "normal"),
        (3, None, "hard"),
    ]
    assert Match.objects.get(pk=new_id).status == "active"


def test_a_proposal_expires_and_an_expired_one_cannot_be_accepted(
    table: Table, clock: FakeClock
) -> None:
    old_id, players = finished(table, visibility="public")
    assert rematch(players[0], old_id).status_code == 201
    clock.advance(9 * 60)
    assert rematch(players[1], old_id).status_code == 200
    clock.advance(61)
    before = community(), Match.objects.count()
    assert_problem(rematch(players[2], old_id), 409, "rematch_expired")
    assert (community(), Match.objects.count()) == before
    got = players[2].client.get(match_url(old_id, "/rematch")).json()
    assert got["status"] == "expired" and got["new_match_id"] is None
    # One proposal per finished match: an expired one is not renewed.
    assert_problem(rematch(players[0], old_id), 409, "rematch_expired")


def test_a_started_rematch_is_not_proposed_again(make_player: Callable[..., Player]) -> None:
    host = make_player()
    created = create_match(host, bots={"1": "easy", "2": "easy", "3": "easy"})
    finish_by_resigning(host, created["id"])
    assert rematch(host, created["id"]).status_code == 201
    count = Match.objects.count()
    assert_problem(rematch(host, created["id"]), 409, "rematch_started")
    assert Match.objects.count() == count


@pytest.mark.parametrize("status", ["waiting", "active", "aborted"])
def test_only_a_finished_match_is_played_again(
    table: Table, make_player: Callable[..., Player], status: str
) -> None:
    if status == "active":
        view, players = table(visibility="public")
        player, match_id = players[0], view["id"]
    else:
        player = make_player()
        match_id = create_match(player, visibility="public")["id"]
        if status == "aborted":
            player.client.post(match_url(match_id, "/leave"), format="json")
    if status == "aborted":
        # The creator left the aborted match: they are an outsider of it now.
        assert_problem(rematch(player, match_id), 403, "not_a_player")
        return
    before = fingerprint(match_id)
    assert_problem(rematch(player, match_id), 409, "match_not_finished")
    assert_problem(player.client.get(match_url(match_id, "/rematch")), 404, "rematch_not_found")
    assert fingerprint(match_id) == before and community()["rematches"] == []


@pytest.mark.parametrize("persona", ["outsider", *GATE])
@pytest.mark.parametrize("visibility", ["public", "private"])
def test_outsiders_and_gated_callers_are_refused_and_nothing_changes(
    table: Table, make_player: Callable[..., Player], persona: str, visibility: str
) -> None:
    old_id, players = finished(table, visibility=visibility)
    assert rematch(players[0], old_id).status_code == 201
    if persona == "outsider":
        client = make_player().client
        status, code = (404, "not_found") if visibility == "private" else (403, "not_a_player")
    else:
        # A seated player of the finished match, logged out or banned since.
        client = gate_client(persona, players[3])
        status, code = GATE[persona]
    before = community(), Match.objects.count()
    assert_problem(client.post(match_url(old_id, "/rematch"), format="json"), status, code)
    assert_problem(client.get(match_url(old_id, "/rematch")), status, code)
    assert (community(), Match.objects.count()) == before


def test_a_body_is_refused(table: Table) -> None:
    old_id, players = finished(table, visibility="public")
    answer = players[0].client.post(match_url(old_id, "/rematch"), {"x": 1}, format="json")
    assert_problem(answer, 400, "invalid")
    assert community()["rematches"] == []
