"""Refused moves: every engine code through POST /moves, stale versions, outsiders, malformed
bodies and finished matches. Each answers with its documented status and code as
``application/problem+json`` and leaves every stored value of the match exactly as it was."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.support.api import (
    assert_field_errors,
    assert_problem,
    bid_hokum_round,
    fingerprint,
    match_url,
    play,
    post_move,
)
from tests.support.players import Player, create_match

UNDOUBLED = [(3, "pass"), (1, "pass")]
LOCKED = [(3, "double"), (2, "pass")]  # x2 in Hokum: the round is locked (R23)


def reach(players: list[Player], match_id: int, situation: str) -> None:
    """Drive round 1 of the HOKUM_HANDS deal (seat 0 deals, seat 2 buys Hokum hearts)."""
    if situation == "bidding":
        return  # seat 1 opens
    if situation == "doubling":
        bid_hokum_round(players, match_id, [])  # seat 3 is asked first
    elif situation == "locked_lead":
        bid_hokum_round(players, match_id, LOCKED)  # seat 2 leads, holding 4 trumps and 4 others
    elif situation == "open_lead":
        bid_hokum_round(players, match_id, UNDOUBLED)
    elif situation == "following":
        bid_hokum_round(players, match_id, UNDOUBLED)
        play(players, match_id, 2, {"type": "play", "card": "AS"})  # seat 3 holds 8S 7S
    else:  # pragma: no cover - a typo in a parameter
        raise AssertionError(situation)


ENGINE_REFUSALS = [
    # situation, seat, body, code
    ("bidding", 2, {"type": "bid", "call": "hokum"}, "not_your_turn"),
    ("bidding", 3, {"type": "play", "card": "8S"}, "not_your_turn"),
    ("bidding", 1, {"type": "bid", "call": "ashkal"}, "illegal_call"),
    ("bidding", 1, {"type": "bid", "call": "hokum", "suit": "S"}, "illegal_call"),
    ("bidding", 1, {"type": "play", "card": "8H"}, "illegal_call"),
    ("bidding", 1, {"type": "double", "call": "double"}, "illegal_call"),
    ("bidding", 1, {"type": "declare", "projects": []}, "invalid_project"),
    ("doubling", 1, {"type": "double", "call": "double"}, "not_your_turn"),
    ("doubling", 3, {"type": "double", "call": "triple"}, "illegal_call"),
    ("doubling", 3, {"type": "bid", "call": "sun"}, "illegal_call"),
    ("doubling", 3, {"type": "play", "card": "8S"}, "illegal_call"),
    ("locked_lead", 2, {"type": "play", "card": "KH"}, "locked_trump_lead"),
    ("locked_lead", 2, {"type": "play", "card": "JH"}, "card_not_held"),
    ("locked_lead", 0, {"type": "play", "card": "JH"}, "not_your_turn"),
    ("open_lead", 2, {"type": "play", "card": "10S"}, "card_not_held"),
    ("open_lead", 2, {"type": "double", "call": "double"}, "illegal_call"),
    (
        "open_lead",
        2,
        {"type": "declare", "projects": [{"kind": "sira", "cards": ["10S", "9S", "8S"]}]},
        "invalid_project",
    ),
    (
        "open_lead",
        2,
        {"type": "declare", "projects": [{"kind": "50", "cards": ["AS", "KS", "QS"]}]},
        "invalid_project",
    ),
    (
        "open_lead",
        2,
        {
            "type": "declare",
            "projects": [
                {"kind": "sira", "cards": ["AS", "KS", "QS"]},
                {"kind": "sira", "cards": ["AS", "KS", "QS"]},
            ],
        },
        "invalid_project",
    ),
    ("following", 3, {"type": "play", "card": "10D"}, "must_follow_suit"),
    ("following", 3, {"type": "play", "card": "AH"}, "card_not_held"),
    (
        "following",
        3,
        {"type": "declare", "projects": [{"kind": "sira", "cards": ["KC", "QC", "9C"]}]},
        "invalid_project",
    ),
    (
        "following",
        2,
        {"type": "declare", "projects": [{"kind": "sira", "cards": ["KH", "QH", "9H"]}]},
        "not_your_turn",
    ),
]


@pytest.mark.parametrize(("situation", "seat", "body", "code"), ENGINE_REFUSALS)
def test_a_move_the_rules_refuse_is_422_with_the_engine_code_and_changes_nothing(
    hokum_table: Callable[..., Any], situation: str, seat: int, body: dict[str, Any], code: str
) -> None:
    view, players = hokum_table()
    reach(players, view["id"], situation)
    before = fingerprint(view["id"])
    response = post_move(players[seat], view["id"], body)
    problem = assert_problem(response, 422, code)
    assert "errors" not in problem
    assert fingerprint(view["id"]) == before


def test_S20_a_sawa_in_a_gamerules_match_is_422_not_in_ruleset_and_changes_nothing(
    hokum_table: Callable[..., Any],
) -> None:
    """The schema lists every ruleset's move types, so `{"type": "sawa"}` is well formed; the
    match's ruleset has no Sawa (rules-saudi.md S20): a refusal, not a bad body. Retried
    with the same key, the refusal is not stored as an answer."""
    view, players = hokum_table()
    reach(players, view["id"], "open_lead")
    before = fingerprint(view["id"])
    headers = {"HTTP_IDEMPOTENCY_KEY": "sawa-1"}
    for player in (players[2], players[1]):  # to act, and not
        for _ in range(2):
            response = player.client.post(
                match_url(view["id"], "/moves"), {"type": "sawa"}, format="json", **headers
            )
            problem = assert_problem(response, 422, "not_in_ruleset")
            assert "errors" not in problem
    assert fingerprint(view["id"]) == before


def test_more_projects_than_any_declaration_holds_is_422_invalid_project(
    hokum_table: Callable[..., Any],
) -> None:
    """The schema leaves a declaration's list unbounded; past the parser's bound (4, twice
    what the rules allow) the list is refused unread, as the engine refuses 3: invalid_project."""
    view, players = hokum_table()
    before = fingerprint(view["id"])
    body = {"type": "declare", "projects": [{"kind": "50", "cards": ["7S"]}] * 5}
    problem = assert_problem(post_move(players[1], view["id"], body), 422, "invalid_project")
    assert [e["field"] for e in problem["errors"]] == ["projects"]
    assert fingerprint(view["id"]) == before


def test_the_locked_leader_may_still_lead_a_plain_card_after_refusals(
    hokum_table: Callable[..., Any],
) -> None:
    view, players = hokum_table()
    reach(players, view["id"], "locked_lead")
    seen = players[2].client.get(match_url(view["id"])).json()["round"]
    assert seen["contract"]["locked"] is True
    assert {"type": "play", "card": "KH"} not in seen["legal_moves"]
    assert_problem(
        post_move(players[2], view["id"], {"type": "play", "card": "KH"}), 422, "locked_trump_lead"
    )
    answer = play(players, view["id"], 2, {"type": "play", "card": "AS"})
    assert answer["round"]["current_trick"] == {"leader": 2, "cards": ["AS"]}


def test_a_second_declaration_is_refused(hokum_table: Callable[..., Any]) -> None:
    view, players = hokum_table()
    reach(players, view["id"], "open_lead")
    sira = {"type": "declare", "projects": [{"kind": "sira", "cards": ["AS", "KS", "QS"]}]}
    play(players, view["id"], 2, sira)
    before = fingerprint(view["id"])
    assert_problem(post_move(players[2], view["id"], sira), 422, "invalid_project")
    assert fingerprint(view["id"]) == before


@pytest.mark.parametrize("offset", [-1, 1, 100])
def test_a_stale_expected_version_is_409_with_the_current_version(
    hokum_table: Callable[..., Any], offset: int
) -> None:
    view, players = hokum_table()
    before = fingerprint(view["id"])
    body = {"type": "bid", "call": "pass", "expected_version": view["version"] + offset}
    problem = assert_problem(post_move(players[1], view["id"], body), 409, "stale_version")
    assert problem["current_version"] == view["version"]
    assert fingerprint(view["id"]) == before
    fresh = {**body, "expected_version": view["version"]}
    assert post_move(players[1], view["id"], fresh).status_code == 201


def test_a_stale_version_wins_over_a_move_out_of_turn(hokum_table: Callable[..., Any]) -> None:
    view, players = hokum_table()
    body = {"type": "bid", "call": "pass", "expected_version": view["version"] - 1}
    assert_problem(post_move(players[2], view["id"], body), 409, "stale_version")


@pytest.mark.parametrize(
    ("visibility", "status", "code"),
    [("public", 403, "not_a_player"), ("private", 404, "not_found")],
)
def test_an_outsiders_move_is_refused_without_changing_anything(
    hokum_table: Callable[..., Any],
    make_player: Callable[..., Player],
    visibility: str,
    status: int,
    code: str,
) -> None:
    view, _ = hokum_table(visibility=visibility)
    before = fingerprint(view["id"])
    outsider = make_player()
    for body in (
        {"type": "bid", "call": "hokum"},
        {"type": "bid", "call": "pass", "expected_version": 1},
    ):
        assert_problem(post_move(outsider, view["id"], body), status, code)
    assert fingerprint(view["id"]) == before


MALFORMED = [
    # body, the fields named in `errors` with their codes
    ([{"type": "bid", "call": "pass"}], {"body": "invalid"}),
    ("pass", {"body": "invalid"}),
    ({}, {"type": "required"}),
    ({"type": "fold"}, {"type": "invalid_choice"}),
    ({"type": None, "call": "pass"}, {"type": "null"}),
    ({"type": "play"}, {"card": "invalid"}),
    ({"type": "play", "card": "1S"}, {"card": "invalid_choice"}),
    ({"type": "play", "card": "as"}, {"card": "invalid_choice"}),
    ({"type": "play", "card": 10}, {"card": "invalid_choice"}),
    ({"type": "play", "card": None}, {"card": "null"}),
    ({"type": "play", "card": "8H", "seat": 1}, {"seat": "unknown_field"}),
    ({"type": "play", "card": "8H", "colour": "red"}, {"colour": "unknown_field"}),
    ({"type": "play", "card": "8H", "suit": "H"}, {"suit": "invalid"}),
    ({"type": "play", "card": "8H", "call": "pass"}, {"call": "invalid"}),
    ({"type": "bid"}, {"call": "invalid"}),
    ({"type": "bid", "call": "double"}, {"call": "invalid"}),
    ({"type": "bid", "call": ["pass"]}, {"call": "invalid"}),
    ({"type": "bid", "call": "hokum", "suit": "X"}, {"suit": "invalid_choice"}),
    ({"type": "bid", "call": "pass", "card": "8H"}, {"card": "invalid"}),
    ({"type": "double", "call": "hokum"}, {"call": "invalid"}),
    ({"type": "double", "call": "pass", "suit": "S"}, {"suit": "invalid"}),
    ({"type": "double"}, {"call": "invalid"}),
    ({"type": "declare"}, {"projects": "invalid"}),
    ({"type": "declare", "projects": "AS KS QS"}, {"projects": "not_a_list"}),
    (
        {"type": "declare", "projects": [{"kind": "seventy", "cards": ["AS"]}]},
        {"projects.0.kind": "invalid_choice"},
    ),
    (
        {"type": "declare", "projects": [{"kind": "sira", "cards": []}]},
        {"projects.0.cards": "min_length"},
    ),
    ({"type": "declare", "projects": [{"kind": "sira"}]}, {"projects.0.cards": "required"}),
    (
        {"type": "declare", "projects": [{"kind": "sira", "cards": ["AS", "KS", "ZZ"]}]},
        {"projects.0.cards.2": "invalid_choice"},
    ),
    ({"type": "bid", "call": "pass", "expected_version": -1}, {"expected_version": "min_value"}),
    ({"type": "bid", "call": "pass", "expected_version": "soon"}, {"expected_version": "invalid"}),
]


@pytest.mark.parametrize(("body", "fields"), MALFORMED)
def test_a_body_that_is_not_a_move_is_400_with_its_field_errors_and_changes_nothing(
    hokum_table: Callable[..., Any], body: Any, fields: dict[str, str]
) -> None:
    view, players = hokum_table()
    before = fingerprint(view["id"])
    response = post_move(players[1], view["id"], body)  # seat 1 is to act
    assert_field_errors(response, fields)
    assert fingerprint(view["id"]) == before


def test_a_body_that_is_not_json_is_400_parse_error(hokum_table: Callable[..., Any]) -> None:
    view, players = hokum_table()
    before = fingerprint(view["id"])
    response = players[1].client.post(
        match_url(view["id"], "/moves"), '{"type": "bid", "call": ', content_type="application/json"
    )
    problem = assert_problem(response, 400, "parse_error")
    assert problem["errors"][0]["field"] == "body"
    assert problem["errors"][0]["code"] == "parse_error"
    assert fingerprint(view["id"]) == before


def test_a_body_that_is_not_json_at_all_is_415(hokum_table: Callable[..., Any]) -> None:
    view, players = hokum_table()
    before = fingerprint(view["id"])
    response = players[1].client.post(
        match_url(view["id"], "/moves"), {"type": "bid", "call": "pass"}, format="multipart"
    )
    assert_problem(response, 415, "unsupported_media_type")
    assert fingerprint(view["id"]) == before


def test_a_move_in_a_waiting_match_is_409_match_not_active(
    make_player: Callable[..., Player],
) -> None:
    creator = make_player()
    created = create_match(creator)
    before = fingerprint(created["id"])
    for body in (
        {"type": "bid", "call": "pass"},
        {"type": "bid", "call": "pass", "expected_version": 1},
    ):
        assert_problem(post_move(creator, created["id"], body), 409, "match_not_active")
    assert fingerprint(created["id"]) == before


def test_a_move_in_a_finished_match_is_409_match_not_active(
    hokum_table: Callable[..., Any],
) -> None:
    view, players = hokum_table()
    players[0].client.post(match_url(view["id"], "/resign"))
    before = fingerprint(view["id"])
    for seat in range(4):
        for body in ({"type": "bid", "call": "pass"}, {"type": "play", "card": "AS"}):
            assert_problem(post_move(players[seat], view["id"], body), 409, "match_not_active")
    assert fingerprint(view["id"]) == before


def test_an_overlong_idempotency_key_is_400(hokum_table: Callable[..., Any]) -> None:
    view, players = hokum_table()
    before = fingerprint(view["id"])
    response = post_move(
        players[1], view["id"], {"type": "bid", "call": "pass"}, HTTP_IDEMPOTENCY_KEY="k" * 201
    )
    # The schema states the bound (maxLength 200), and the 400 names the header, as any 400 names
    # what is wrong.
    problem = assert_problem(response, 400, "invalid")
    assert [(e["field"], e["code"]) for e in problem["errors"]] == [
        ("Idempotency-Key", "max_length")
    ]
    assert fingerprint(view["id"]) == before


@pytest.mark.parametrize(
    "query", ["after=-1", "after=soon", "after=99999999999999999999999", "page_size=many"]
)
def test_bad_move_log_parameters_are_400(hokum_table: Callable[..., Any], query: str) -> None:
    view, players = hokum_table()
    response = players[0].client.get(match_url(view["id"], f"/moves?{query}"))
    body = assert_problem(response, 400, "invalid")
    assert body["errors"][0]["field"] == query.split("=")[0]


def test_a_round_number_too_large_for_the_database_is_404(
    hokum_table: Callable[..., Any],
) -> None:
    view, players = hokum_table()
    response = players[0].client.get(
        match_url(view["id"], "/rounds/99999999999999999999999/record")
    )
    assert_problem(response, 404, "not_found")
