"""Defects the contract fuzzing found, each pinned by a focused test (in-process client)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.support.api import API, assert_problem
from tests.support.players import Player

LISTS = [f"{API}/matches", f"{API}/matches/open", f"{API}/me/matches"]


@pytest.fixture
def schema(client: Any) -> dict[str, Any]:
    response = client.get("/api/schema/?format=json")
    assert response.status_code == 200
    return response.json()


def test_errors_are_documented_as_problem_json(schema: dict[str, Any]) -> None:
    """Errors were documented as application/json while served as application/problem+json."""
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            for status, response in operation["responses"].items():
                if status.startswith(("4", "5")):
                    assert list(response["content"]) == ["application/problem+json"], (
                        method,
                        path,
                        status,
                    )


@pytest.mark.parametrize("url", LISTS)
def test_every_list_documents_cursor_page_size_and_its_400(
    schema: dict[str, Any], url: str
) -> None:
    """/me/matches documented no cursor or page_size, /matches/open no cursor; none
    documented the 404 a forged cursor gets, and only /matches the 400 of a bad page_size."""
    operation = schema["paths"][url]["get"]
    params = {p["name"]: p["schema"] for p in operation["parameters"]}
    assert params["cursor"]["type"] == "string"
    assert params["page_size"] == {"type": "integer", "minimum": 1}
    assert {"400", "404"} <= set(operation["responses"])


@pytest.mark.parametrize("url", LISTS)
def test_a_forged_cursor_is_the_documented_404(
    make_player: Callable[..., Player], url: str
) -> None:
    """A cursor the server did not mint was a 404 no list documented (see the test above)."""
    me = make_player()
    assert_problem(me.client.get(f"{url}?cursor=t"), 404, "not_found")


@pytest.mark.parametrize("url", [*LISTS, f"{API}/matches/{{id}}/moves"])
@pytest.mark.parametrize("value", ["null", "-5", "0", "2.5"])
def test_a_bad_page_size_is_400_on_every_list(
    make_player: Callable[..., Player], url: str, value: str
) -> None:
    """The cursor lists silently ignored a bad page_size (200) and the move log clamped 0 to 1,
    while the schema says a positive integer."""
    me = make_player()
    match = me.client.post(f"{API}/matches", {}, format="json").json()
    response = me.client.get(f"{url.format(id=match['id'])}?page_size={value}")
    body = assert_problem(response, 400, "invalid")
    assert body["errors"][0]["field"] == "page_size"


@pytest.mark.parametrize("url", [*LISTS, f"{API}/matches/{{id}}/moves"])
def test_a_large_page_size_is_still_capped(make_player: Callable[..., Player], url: str) -> None:
    me = make_player()
    match = me.client.post(f"{API}/matches", {}, format="json").json()
    assert me.client.get(f"{url.format(id=match['id'])}?page_size=500").status_code == 200


def test_an_unknown_status_filter_lists_the_field(make_player: Callable[..., Player]) -> None:
    """The 400 for ?status=AAA had no ``errors`` list, unlike every other 400."""
    me = make_player()
    body = assert_problem(me.client.get(f"{API}/matches?status=AAA"), 400, "invalid")
    assert body["errors"] == [
        {"field": "status", "code": "invalid_choice", "detail": "Unknown."},
    ]


def test_bots_schema_names_the_seats_the_server_accepts(
    schema: dict[str, Any], make_player: Callable[..., Player]
) -> None:
    """``bots`` was documented as a map with any keys; the server takes only "1"-"3"."""
    bots = schema["components"]["schemas"]["BotSeats"]
    assert sorted(bots["properties"]) == ["1", "2", "3"]
    assert bots["additionalProperties"] is False
    me = make_player()
    refused = me.client.post(f"{API}/matches", {"bots": {"4": "easy"}}, format="json")
    body = assert_problem(refused, 400, "invalid")
    assert body["errors"][0]["code"] == "invalid_seat"
    accepted = me.client.post(f"{API}/matches", {"bots": {"3": "normal"}}, format="json")
    assert accepted.status_code == 201, accepted.content
    assert accepted.json()["seats"][3]["bot"] == "normal"


@pytest.mark.parametrize(
    ("url", "body", "field"),
    [
        (
            f"{API}/auth/register",
            {"username": "numbers", "password": "long enough", "display_name": 0},
            "display_name",
        ),
        (f"{API}/auth/login", {"username": 12345, "password": "long enough"}, "username"),
        (f"{API}/auth/login", {"username": "someone", "password": True}, "password"),
    ],
)
def test_request_strings_must_be_strings(
    anon: Any, db: None, url: str, body: dict[str, Any], field: str
) -> None:
    """DRF turned 0 into "0" and true into "True": a number was accepted as a display name."""
    response = anon.post(url, body, format="json")
    problem = assert_problem(response, 400, "invalid")
    assert [e["field"] for e in problem["errors"]] == [field]


def test_a_move_call_must_be_a_string(table: Callable[..., Any]) -> None:
    view, players = table()
    seat = view["round"]["to_act"]
    response = players[seat].client.post(
        f"{API}/matches/{view['id']}/moves", {"type": "bid", "call": 0}, format="json"
    )
    problem = assert_problem(response, 400, "invalid")
    assert [e["field"] for e in problem["errors"]] == ["call"]
