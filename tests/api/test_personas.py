"""Who may do what, endpoint by endpoint: the seat to act, a seat out of turn, its partner, an
opponent, an outsider (public and private match), an anonymous caller and a revoked token.

Every refusal is checked for its status and code, and refusals leave the match unchanged.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.models import AuthToken
from accounts.services import token_revoke
from tests.support.api import (
    API,
    assert_problem,
    bid_hokum_round,
    fingerprint,
    finish_round,
    hand_names,
    match_url,
    state_of,
)
from tests.support.players import Player, create_match

# In the HOKUM_HANDS deal seat 0 deals, so seat 1 bids first.
TO_ACT, PARTNER, OUT_OF_TURN, OPPONENT = 1, 3, 0, 2
SEATED = {"to_act": TO_ACT, "partner": PARTNER, "out_of_turn": OUT_OF_TURN, "opponent": OPPONENT}

# name -> (method, path tail, body)
MATCH_ENDPOINTS: dict[str, tuple[str, str, Any]] = {
    "view": ("get", "", None),
    "move_log": ("get", "/moves", None),
    "score_sheet": ("get", "/rounds", None),
    "round_record": ("get", "/rounds/1/record", None),
    "match_record": ("get", "/record", None),
    "join": ("post", "/join", {}),
    "leave": ("post", "/leave", None),
    "resign": ("post", "/resign", None),
    "move": ("post", "/moves", {"type": "bid", "call": "pass"}),
}
COLLECTION_ENDPOINTS: dict[str, tuple[str, str, Any]] = {
    "me": ("get", "/me", None),
    "inbox": ("get", "/me/matches", None),
    "matches": ("get", "/matches", None),
    "lobby": ("get", "/matches/open", None),
    "create": ("post", "/matches", {}),
    "logout": ("post", "/auth/logout", None),
}


def call(client: APIClient, match_id: int | None, endpoint: tuple[str, str, Any]) -> Any:
    method, tail, body = endpoint
    url = match_url(match_id, tail) if match_id is not None else API + tail
    if method == "get":
        return client.get(url)
    return client.post(url, body, format="json")


def revoked_client(player: Player) -> APIClient:
    token_revoke(token=AuthToken.objects.get(user=player.user))
    return player.client


def expectations(persona: str, visibility: str) -> dict[str, tuple[int, str | None]]:
    """What each persona gets from each match endpoint in an active match (round 1 bidding)."""
    if persona == "anonymous":
        return dict.fromkeys(MATCH_ENDPOINTS, (401, "not_authenticated"))
    if persona == "revoked":
        return dict.fromkeys(MATCH_ENDPOINTS, (401, "authentication_failed"))
    if persona == "outsider" and visibility == "private":
        return dict.fromkeys(MATCH_ENDPOINTS, (404, "not_found"))
    reads: dict[str, tuple[int, str | None]] = {
        "view": (200, None),
        "move_log": (200, None),
        "score_sheet": (200, None),
        "round_record": (409, "round_not_finished"),
        "match_record": (409, "match_not_finished"),
        "join": (409, "match_not_waiting"),
    }
    if persona == "outsider":
        return {
            **reads,
            "leave": (403, "not_a_player"),
            "resign": (403, "not_a_player"),
            "move": (403, "not_a_player"),
        }
    return {
        **reads,
        "leave": (409, "match_not_waiting"),
        # resign is allowed (tested on its own below); the bid is the seat to act's to make
        "move": (201, None) if persona == "to_act" else (422, "not_your_turn"),
    }


def client_for(persona: str, players: list[Player], make_player: Callable[..., Player]) -> Any:
    if persona in SEATED:
        return players[SEATED[persona]].client
    if persona == "outsider":
        return make_player().client
    if persona == "anonymous":
        return APIClient()
    return revoked_client(players[PARTNER])


@pytest.mark.parametrize("visibility", ["public", "private"])
@pytest.mark.parametrize(
    "persona", ["to_act", "out_of_turn", "partner", "opponent", "outsider", "anonymous", "revoked"]
)
def test_each_persona_gets_what_it_may_from_every_endpoint_of_an_active_match(
    hokum_table: Callable[..., Any],
    make_player: Callable[..., Player],
    persona: str,
    visibility: str,
) -> None:
    view, players = hokum_table(visibility=visibility)
    match_id = view["id"]
    client = client_for(persona, players, make_player)
    expected = expectations(persona, visibility)
    before = fingerprint(match_id)
    for name, endpoint in MATCH_ENDPOINTS.items():
        if name == "resign" and persona in SEATED:
            continue  # allowed: see test_any_seated_player_may_resign_and_their_team_loses
        if name == "move" and persona == "to_act":
            continue  # allowed: made last, below, once the refusals are checked
        response = call(client, match_id, endpoint)
        status, code = expected[name]
        if code is None:
            assert response.status_code == status, (name, response.content)
        else:
            assert_problem(response, status, code)
            if status == 401:
                assert response["WWW-Authenticate"] == "Bearer", name
    assert fingerprint(match_id) == before  # nothing refused (or read) changed the match
    if persona == "to_act":
        response = call(client, match_id, MATCH_ENDPOINTS["move"])
        assert response.status_code == 201, response.content
        assert response.json()["version"] == view["version"] + 1


@pytest.mark.parametrize("persona", ["to_act", "out_of_turn", "partner", "opponent"])
def test_a_seated_player_sees_their_own_hand_and_moves_only_on_their_turn(
    hokum_table: Callable[..., Any], persona: str
) -> None:
    view, players = hokum_table()
    seat = SEATED[persona]
    body = players[seat].client.get(match_url(view["id"])).json()
    assert body["my_seat"] == seat
    assert body["invite_code"]  # seated players may pass the private invite on
    assert body["round"]["hand"] == hand_names(state_of(view["id"]), seat)
    assert len(body["round"]["hand"]) == 5
    assert body["round"]["to_act"] == TO_ACT
    if seat == TO_ACT:
        assert {"type": "bid", "call": "hokum"} in body["round"]["legal_moves"]
        assert body["round"]["deadline"] is not None
    else:
        assert body["round"]["legal_moves"] == []


def test_an_outsider_sees_the_public_view_of_a_public_match_without_any_hand(
    hokum_table: Callable[..., Any], make_player: Callable[..., Player]
) -> None:
    view, _ = hokum_table(visibility="public")
    body = make_player().client.get(match_url(view["id"])).json()
    assert body["my_seat"] is None
    assert body["invite_code"] is None
    assert body["round"]["hand"] == []
    assert body["round"]["legal_moves"] == []
    assert body["round"]["projects_available"] == []
    assert body["round"]["card_counts"] == [5, 5, 5, 5]
    assert body["round"]["face_up"] == "KH"


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_any_seated_player_may_resign_and_their_team_loses(
    hokum_table: Callable[..., Any], seat: int
) -> None:
    view, players = hokum_table()
    response = players[seat].client.post(match_url(view["id"], "/resign"))
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["status"] == "finished"
    assert body["end_reason"] == "resigned"
    assert body["winner_team"] == 1 - seat % 2
    assert body["version"] == view["version"] + 1
    for other in players:
        seen = other.client.get(match_url(view["id"])).json()
        assert seen["status"] == "finished"
        assert seen["round"]["legal_moves"] == []  # nobody is to move in a finished match
        assert seen["round"]["deadline"] is None
    again = players[(seat + 1) % 4].client.post(match_url(view["id"], "/resign"))
    assert_problem(again, 409, "match_not_active")


@pytest.mark.parametrize("persona", ["seated", "public_outsider", "private_outsider"])
def test_a_finished_matchs_record_is_open_to_whoever_may_see_the_match(
    table: Callable[..., Any], make_player: Callable[..., Player], persona: str
) -> None:
    visibility = "private" if persona == "private_outsider" else "public"
    view, players = table(visibility=visibility)
    players[2].client.post(match_url(view["id"], "/resign"))
    client = players[3].client if persona == "seated" else make_player().client
    before = fingerprint(view["id"])
    record = client.get(match_url(view["id"], "/record"))
    cut_short = client.get(match_url(view["id"], "/rounds/1/record"))
    if persona == "private_outsider":
        assert_problem(record, 404, "not_found")
        assert_problem(cut_short, 404, "not_found")
    else:
        assert record.status_code == 200, record.content
        body = record.json()
        assert body["format"] == "baloot-record/1"
        assert body["rounds"] == []  # round 1 was cut short: its deck stays secret
        assert body["result"] == {
            "winner_team": 1,
            "end_reason": "resigned",
            "scores": [0, 0],
        }
        assert_problem(cut_short, 409, "round_not_finished")
    for name in ("move", "resign"):
        assert_problem(
            call(players[0].client, view["id"], MATCH_ENDPOINTS[name]), 409, "match_not_active"
        )
    assert_problem(
        call(players[0].client, view["id"], MATCH_ENDPOINTS["leave"]), 409, "match_not_waiting"
    )
    assert fingerprint(view["id"]) == before


@pytest.mark.parametrize("persona", ["seated", "public_outsider", "private_outsider"])
def test_a_finished_round_record_reveals_deck_and_salt_to_whoever_may_see_the_match(
    hokum_table: Callable[..., Any], make_player: Callable[..., Player], persona: str
) -> None:
    visibility = "private" if persona == "private_outsider" else "public"
    view, players = hokum_table(visibility=visibility)
    bid_hokum_round(players, view["id"], [(3, "pass"), (1, "pass")])
    finish_round(players, view["id"])
    client = players[0].client if persona == "seated" else make_player().client
    response = client.get(match_url(view["id"], "/rounds/1/record"))
    if persona == "private_outsider":
        assert_problem(response, 404, "not_found")
        return
    assert response.status_code == 200, response.content
    (rnd,) = response.json()["rounds"]
    expected = hashlib.sha256(f"{rnd['salt']}:{','.join(rnd['deck'])}".encode()).hexdigest()
    assert rnd["commitment"] == expected
    assert len(rnd["salt"]) == 32
    assert rnd["actions"][0] == {"seat": 1, "type": "bid", "call": "pass"}
    assert_problem(client.get(match_url(view["id"], "/rounds/2/record")), 409, "round_not_finished")
    assert_problem(client.get(match_url(view["id"], "/rounds/3/record")), 404, "not_found")


@pytest.mark.parametrize("persona", ["user", "anonymous", "revoked"])
def test_collection_endpoints_need_a_live_token(
    make_player: Callable[..., Player], persona: str
) -> None:
    player = make_player()
    create_match(player)
    client = {
        "user": player.client,
        "anonymous": APIClient(),
        "revoked": revoked_client(make_player()) if persona == "revoked" else None,
    }[persona]
    assert client is not None  # each persona's client is built when it is the one tested
    for name, endpoint in COLLECTION_ENDPOINTS.items():
        response = call(client, None, endpoint)
        if persona == "user":
            expected = {"create": 201, "logout": 204}.get(name, 200)
            assert response.status_code == expected, (name, response.content)
        else:
            code = "not_authenticated" if persona == "anonymous" else "authentication_failed"
            assert_problem(response, 401, code)
            assert response["WWW-Authenticate"] == "Bearer"


@pytest.mark.parametrize("persona", ["anonymous", "revoked"])
def test_register_and_login_are_open_to_callers_without_a_live_token(
    make_player: Callable[..., Player], persona: str
) -> None:
    client = APIClient() if persona == "anonymous" else revoked_client(make_player())
    registered = client.post(
        f"{API}/auth/register",
        {"username": "newcomer", "password": "long enough pw", "display_name": "N"},
        format="json",
    )
    assert registered.status_code == 201, registered.content
    login = client.post(
        f"{API}/auth/login", {"username": "newcomer", "password": "long enough pw"}, format="json"
    )
    assert login.status_code == 200, login.content


# --- A waiting match --------------------------------------------------------------------------


def test_in_a_waiting_match_the_creator_may_read_and_leave_but_not_play(
    make_player: Callable[..., Player],
) -> None:
    creator = make_player()
    created = create_match(creator)
    match_id = created["id"]
    assert created["my_seat"] == 0
    assert created["invite_code"]
    assert created["round"] is None
    before = fingerprint(match_id)
    client = creator.client
    assert_problem(call(client, match_id, MATCH_ENDPOINTS["move"]), 409, "match_not_active")
    assert_problem(call(client, match_id, MATCH_ENDPOINTS["resign"]), 409, "match_not_active")
    assert_problem(call(client, match_id, MATCH_ENDPOINTS["join"]), 409, "already_seated")
    assert_problem(
        call(client, match_id, MATCH_ENDPOINTS["match_record"]), 409, "match_not_finished"
    )
    assert_problem(call(client, match_id, MATCH_ENDPOINTS["round_record"]), 404, "not_found")
    assert call(client, match_id, MATCH_ENDPOINTS["score_sheet"]).json()["results"] == []
    assert call(client, match_id, MATCH_ENDPOINTS["move_log"]).json()["results"] == []
    assert fingerprint(match_id) == before
    left = call(client, match_id, MATCH_ENDPOINTS["leave"])
    assert left.status_code == 200, left.content
    assert left.json()["status"] == "aborted"  # the last human left
    assert left.json()["version"] == created["version"] + 1


def test_a_private_waiting_match_is_joined_only_with_its_invite_code(
    make_player: Callable[..., Player],
) -> None:
    created = create_match(make_player())
    match_id = created["id"]
    guest = make_player()
    before = fingerprint(match_id)
    assert_problem(guest.client.get(match_url(match_id)), 404, "not_found")
    for body in ({}, {"code": "wrong"}, {"code": ""}, {"seat": 2}):
        response = guest.client.post(match_url(match_id, "/join"), body, format="json")
        assert_problem(response, 404, "not_found")
    assert_problem(guest.client.post(match_url(match_id, "/leave")), 404, "not_found")
    assert fingerprint(match_id) == before
    joined = guest.client.post(
        match_url(match_id, "/join"), {"code": created["invite_code"], "seat": 2}, format="json"
    )
    assert joined.status_code == 200, joined.content
    assert joined.json()["my_seat"] == 2
    assert joined.json()["status"] == "waiting"


def test_a_public_waiting_match_is_open_to_outsiders_who_may_not_leave_or_resign_it(
    make_player: Callable[..., Player],
) -> None:
    created = create_match(make_player(), visibility="public", bots={"1": "easy"})
    match_id = created["id"]
    guest = make_player()
    before = fingerprint(match_id)
    seen = guest.client.get(match_url(match_id))
    assert seen.status_code == 200
    assert seen.json()["my_seat"] is None
    assert_problem(guest.client.post(match_url(match_id, "/leave")), 403, "not_a_player")
    assert_problem(guest.client.post(match_url(match_id, "/resign")), 403, "not_a_player")
    taken = guest.client.post(match_url(match_id, "/join"), {"seat": 1}, format="json")
    assert_problem(taken, 409, "seat_taken")
    assert fingerprint(match_id) == before
    joined = guest.client.post(match_url(match_id, "/join"), {}, format="json")
    assert joined.status_code == 200, joined.content
    assert joined.json()["my_seat"] == 2  # the first free seat
    left = guest.client.post(match_url(match_id, "/leave"))
    assert left.status_code == 200
    assert left.json()["my_seat"] is None
    assert left.json()["seats"][2]["empty"] is True
    assert left.json()["status"] == "waiting"  # the creator is still seated


def test_the_fourth_join_starts_the_match_and_later_joins_are_refused(
    make_player: Callable[..., Player],
) -> None:
    created = create_match(make_player(), visibility="public")
    match_id = created["id"]
    for _ in range(3):
        response = make_player().client.post(match_url(match_id, "/join"), {}, format="json")
        assert response.status_code == 200, response.content
    assert response.json()["status"] == "active"
    late = make_player().client.post(match_url(match_id, "/join"), {}, format="json")
    assert_problem(late, 409, "match_not_waiting")


def test_unknown_matches_are_404(make_player: Callable[..., Player]) -> None:
    client = make_player().client
    for tail in ("", "/moves", "/rounds", "/record", "/rounds/1/record"):
        assert_problem(client.get(f"{API}/matches/999999{tail}"), 404, "not_found")
        assert_problem(client.get(f"{API}/matches/nope{tail}"), 404, "not_found")
    for tail, body in (
        ("/join", {}),
        ("/leave", None),
        ("/resign", None),
        ("/moves", {"type": "bid", "call": "pass"}),
    ):
        assert_problem(
            client.post(f"{API}/matches/999999{tail}", body, format="json"), 404, "not_found"
        )
