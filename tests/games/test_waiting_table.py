"""A waiting table: its seated players add and remove bots (the fourth filled seat starts the
match), and a creator who leaves hands the table to the next human instead of aborting it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games.models import Match
from tests.support.api import assert_field_errors, assert_problem, fingerprint, match_url, view_of
from tests.support.players import Player, create_match
from tests.support.social import GATE, gate_client

pytestmark = pytest.mark.django_db


def join(player: Player, created: dict[str, Any], seat: int) -> None:
    body: dict[str, Any] = {"seat": seat}
    if created.get("invite_code"):
        body["code"] = created["invite_code"]
    response = player.client.post(match_url(created["id"], "/join"), body, format="json")
    assert response.status_code == 200, response.content


def add_bot(player: Player, match_id: int, seat: int, level: str = "easy") -> Any:
    body = {"seat": seat, "level": level}
    return player.client.post(match_url(match_id, "/bots"), body, format="json")


def remove_bot(player: Player, match_id: int, seat: int) -> Any:
    return player.client.delete(match_url(match_id, f"/bots/{seat}"))


def test_a_seated_player_adds_bots_and_the_fourth_seat_starts_the_match(
    make_player: Callable[..., Player],
) -> None:
    host, guest = make_player(), make_player()
    created = create_match(host, visibility="private")
    join(guest, created, 1)
    before = view_of(host, created["id"])["version"]
    answer = add_bot(guest, created["id"], 2, "normal")  # a guest, not only the creator
    assert answer.status_code == 200, answer.content
    view = answer.json()
    assert view["status"] == "waiting" and view["my_seat"] == 1
    assert view["seats"][2]["bot"] == "normal" and view["version"] == before + 1
    assert answer["ETag"]
    started = add_bot(host, created["id"], 3, "hard").json()
    assert started["status"] == "active"
    assert [s["bot"] for s in started["seats"]] == [None, None, "normal", "hard"]
    assert started["seats"][3]["display_name"] == "Hard bot"
    assert started["round"]["hand"]  # the caller's own cards, as in any view


def test_a_bot_taken_out_frees_its_seat_for_a_player(make_player: Callable[..., Player]) -> None:
    host, late = make_player(), make_player()
    created = create_match(host, visibility="public", bots={"1": "easy", "2": "easy"})
    answer = remove_bot(host, created["id"], 2)
    assert answer.status_code == 200, answer.content
    assert answer.json()["seats"][2]["bot"] is None
    join(late, created, 2)
    assert view_of(host, created["id"])["seats"][2]["display_name"] == late.user.display_name


@pytest.mark.parametrize("persona", ["outsider", *GATE])
@pytest.mark.parametrize("visibility", ["public", "private"])
def test_only_a_seated_player_touches_the_bots_and_a_refusal_changes_nothing(
    make_player: Callable[..., Player], persona: str, visibility: str
) -> None:
    host = make_player()
    created = create_match(host, visibility=visibility, bots={"1": "easy"})
    other = make_player()
    if persona == "outsider":
        client = other.client
        status, code = (404, "not_found") if visibility == "private" else (403, "not_a_player")
    else:
        client = gate_client(persona, other)
        status, code = GATE[persona]
    before = fingerprint(created["id"])
    url = match_url(created["id"], "/bots")
    assert_problem(client.post(url, {"seat": 2, "level": "easy"}, format="json"), status, code)
    assert_problem(client.delete(url + "/1"), status, code)
    assert fingerprint(created["id"]) == before


def test_refusals_name_what_is_wrong_and_change_nothing(make_player: Callable[..., Player]) -> None:
    host, guest = make_player(), make_player()
    created = create_match(host, visibility="public", bots={"2": "easy"})
    join(guest, created, 1)
    match_id = created["id"]
    before = fingerprint(match_id)
    assert_problem(add_bot(host, match_id, 1), 409, "seat_taken")  # a human's seat
    assert_problem(add_bot(host, match_id, 2), 409, "seat_taken")  # a bot's seat
    assert_problem(remove_bot(host, match_id, 1), 409, "seat_not_bot")
    assert_problem(remove_bot(host, match_id, 3), 409, "seat_not_bot")  # an empty seat
    assert_problem(remove_bot(host, match_id, 4), 404, "not_found")
    url = match_url(match_id, "/bots")
    assert_field_errors(
        host.client.post(url, {"seat": 3, "level": "expert"}, format="json"),
        {"level": "invalid_choice"},
    )
    assert_field_errors(
        host.client.post(url, {"seat": 3, "level": "easy", "name": "x"}, format="json"),
        {"name": "unknown_field"},
    )
    assert_field_errors(
        host.client.post(url, {"seat": 9, "level": "easy"}, format="json"), {"seat": "max_value"}
    )
    assert fingerprint(match_id) == before


def test_bots_of_a_started_match_are_not_the_table_s_to_change(
    table: Callable[..., tuple[dict[str, Any], list[Player]]],
) -> None:
    view, players = table(visibility="public")
    before = fingerprint(view["id"])
    assert_problem(remove_bot(players[0], view["id"], 1), 409, "match_not_waiting")
    assert_problem(add_bot(players[0], view["id"], 1), 409, "match_not_waiting")
    assert fingerprint(view["id"]) == before


def test_a_creator_who_leaves_hands_the_table_to_the_next_human(
    make_player: Callable[..., Player],
) -> None:
    host, second, third = make_player(), make_player(), make_player()
    created = create_match(host, visibility="private")
    join(third, created, 3)
    join(second, created, 2)
    answer = host.client.post(match_url(created["id"], "/leave"), format="json")
    assert answer.status_code == 200, answer.content
    match = Match.objects.get(pk=created["id"])
    assert match.status == "waiting"
    assert match.created_by_id == second.id  # the next human by seat order
    # The table goes on: the new host's guest leaves, a bot fills the seat, and it plays.
    third.client.post(match_url(created["id"], "/leave"), format="json")
    for seat in (0, 1):
        assert add_bot(second, created["id"], seat).status_code == 200
    assert add_bot(second, created["id"], 3).json()["status"] == "active"


def test_only_the_last_human_leaving_aborts_the_match(make_player: Callable[..., Player]) -> None:
    host, guest = make_player(), make_player()
    created = create_match(host, visibility="public", bots={"2": "easy"})
    join(guest, created, 1)
    guest.client.post(match_url(created["id"], "/leave"), format="json")
    assert Match.objects.get(pk=created["id"]).status == "waiting"
    host.client.post(match_url(created["id"], "/leave"), format="json")
    assert Match.objects.get(pk=created["id"]).status == "aborted"
