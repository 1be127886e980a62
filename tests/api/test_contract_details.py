"""Details of the contract a generated client relies on (api.md): the suggested declaration
among legal_moves, the inbox's ETag, the score sheet's pages, move bodies exactly as the
schema's union members describe them."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from games.models import Match
from tests.contract.strict import StrictSchema
from tests.support.api import (
    assert_field_errors,
    bid_hokum_round,
    match_url,
    play,
    post_move,
    to_act,
)


def test_while_declaring_is_legal_legal_moves_holds_the_suggested_declaration(
    hokum_table: Callable[..., Any],
) -> None:
    view, players = hokum_table()
    match_id = view["id"]
    bid_hokum_round(players, match_id, [(3, "pass"), (1, "pass")])
    # Seat 1 leads trick 1 (dealer 0); seat 2, holding the spade sira, declares on its turn.
    for _ in range(4):
        seat = to_act(match_id)
        rnd = players[seat].client.get(match_url(match_id)).json()["round"]
        declares = [m for m in rnd["legal_moves"] if m["type"] == "declare"]
        if rnd["projects_available"]:
            assert declares == [{"type": "declare", "projects": rnd["projects_suggested"]}]
            break
        assert declares == []
        play(players, match_id, seat, next(m for m in rnd["legal_moves"]))
    else:
        raise AssertionError("nobody could declare in trick 1")
    after = play(players, match_id, seat, declares[0])  # postable as it is
    mine = after["round"]
    assert [m for m in mine["legal_moves"] if m["type"] == "declare"] == []
    assert mine["projects_available"] == [] and mine["legal_moves"]


def test_the_inbox_has_an_etag_that_answers_304_until_it_changes(
    table: Callable[..., Any],
) -> None:
    view, players = table()
    url = "/api/v1/me/matches"
    first = players[0].client.get(url)
    tag = first["ETag"]
    assert tag
    again = players[0].client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304 and again["ETag"] == tag and again.content == b""
    seat = to_act(view["id"])
    move = players[seat].client.get(match_url(view["id"])).json()["round"]["legal_moves"][0]
    play(players, view["id"], seat, move)
    changed = players[0].client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200 and changed["ETag"] != tag


def _redeal(players: list[Any], match_id: int) -> None:
    """Every seat passes in both bidding rounds: the round ends as a redeal."""
    for _ in range(8):
        seat = to_act(match_id)
        play(players, match_id, seat, {"type": "bid", "call": "pass"})


def test_the_score_sheet_pages_honour_page_size_with_a_real_next(
    table: Callable[..., Any],
) -> None:
    view, players = table()
    match_id = view["id"]
    _redeal(players, match_id)
    _redeal(players, match_id)
    url = match_url(match_id, "/rounds")
    whole = players[0].client.get(url).json()
    assert [row["number"] for row in whole["results"]] == [1, 2] and whole["next"] is None
    first = players[0].client.get(url, {"page_size": 1}).json()
    assert [row["number"] for row in first["results"]] == [1]
    assert first["next"] and first["next"].startswith("http")
    second = players[0].client.get(first["next"]).json()
    assert [row["number"] for row in second["results"]] == [2] and second["next"] is None
    assert second["scores"] == whole["scores"]
    bad = players[0].client.get(url, {"page_size": 0})
    assert_field_errors(bad, {"page_size": "invalid"})


def test_a_null_suit_is_a_bid_s_alone(hokum_table: Callable[..., Any]) -> None:
    view, players = hokum_table()
    match_id = view["id"]
    # Seat 1 bids first. A bid member may carry `suit: null` (no suit)...
    response = post_move(players[1], match_id, {"type": "bid", "call": "pass", "suit": None})
    assert response.status_code == 201, response.content
    # ...the other members have no suit at all, null or not.
    seat = to_act(match_id)
    for body in (
        {"type": "play", "card": "AS", "suit": None},
        {"type": "double", "call": "pass", "suit": None},
        {"type": "declare", "projects": [{"kind": "sira", "cards": ["AS"]}], "suit": None},
    ):
        assert_field_errors(post_move(players[seat], match_id, body), {"suit": "invalid"})


def _live_schema() -> dict[str, Any]:
    from drf_spectacular.generators import SchemaGenerator
    from drf_spectacular.renderers import OpenApiJsonRenderer

    # Through the JSON renderer, as /api/schema/ serves it (lazy strings, int keys).
    document = SchemaGenerator().get_schema(request=None, public=True)
    return json.loads(OpenApiJsonRenderer().render(document))


@pytest.mark.slow
def test_the_main_answers_of_a_whole_match_are_strictly_what_the_schema_says(
    table: Callable[..., Any],
) -> None:
    strict = StrictSchema(_live_schema())

    def get(player: Any, url: str, **params: Any) -> Any:
        response = player.client.get(url, params)
        _check(strict, "get", url, response)
        return response.json()

    view, players = table(target=1)
    match_id = view["id"]
    rng = random.Random(5)
    for _ in range(500):
        seat = to_act(match_id) if Match.objects.get(pk=match_id).status == "active" else None
        if seat is None:
            break
        mine = get(players[seat], match_url(match_id))
        move = rng.choice(mine["round"]["legal_moves"])
        response = post_move(players[seat], match_id, {**move, "expected_version": mine["version"]})
        assert response.status_code == 201, response.content
        _check(strict, "post", match_url(match_id, "/moves"), response)
        get(players[(seat + 1) % 4], match_url(match_id))
        get(players[0], match_url(match_id, "/moves"), after=max(0, mine["version"] - 3))
    else:
        raise AssertionError("the match did not end")
    get(players[0], match_url(match_id, "/rounds"))
    get(players[0], match_url(match_id, "/record"))
    get(players[0], match_url(match_id, "/rounds/1/record"))
    get(players[0], "/api/v1/me/matches")
    get(players[0], "/api/v1/matches")
    assert strict.validated > 20
    assert not strict.findings, strict.report()


def _check(strict: StrictSchema, method: str, url: str, response: Any) -> None:
    strict.check(
        method,
        url,
        response.status_code,
        response.get("Content-Type"),
        {name.lower(): value for name, value in response.items()},
        response.content,
    )
