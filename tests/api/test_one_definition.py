"""One definition per response: every body is rendered by the serializer its schema is made
from, so an answer holds exactly the properties its schema documents, in the documented order
(ETags and stored idempotent answers depend on the bytes, clients may depend on the order)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator

from games.models import Match
from tests.support.api import bid_hokum_round, legal_step, match_url, play_until
from tests.support.players import Player


@pytest.fixture(scope="module")
def components() -> dict[str, Any]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    found: dict[str, Any] = schema["components"]["schemas"]
    return found


def _assert_shape(components: dict[str, Any], name: str, body: dict[str, Any]) -> None:
    documented = list(components[name]["properties"])
    required = set(components[name].get("required", ()))
    assert set(body) <= set(documented), (name, set(body) - set(documented))
    assert required <= set(body), (name, required - set(body))
    assert list(body) == [key for key in documented if key in body], name


def _assert_view(components: dict[str, Any], view: dict[str, Any]) -> None:
    _assert_shape(components, "MatchView", view)
    for seat in view["seats"]:
        _assert_shape(components, "SeatView", seat)
    if view["round"] is not None:
        _assert_shape(components, "RoundView", view["round"])
        if view["round"]["contract"] is not None:
            _assert_shape(components, "ContractView", view["round"]["contract"])
    if view["previous_round"] is not None:
        _assert_shape(components, "FinishedRound", view["previous_round"])
        _assert_shape(components, "RoundResult", view["previous_round"]["result"])


@pytest.mark.slow
def test_every_body_holds_its_schema_properties_in_order(
    hokum_table: Callable[..., tuple[dict[str, Any], list[Player]]],
    components: dict[str, Any],
) -> None:
    view, players = hokum_table(visibility="public", target=20)
    match_id = view["id"]
    bid_hokum_round(players, match_id, [(3, "pass"), (1, "pass")])
    rng = random.Random(5)
    for _ in range(6):
        answer = legal_step(players, match_id, rng, declare_rate=1.0)
        _assert_view(components, answer)
    for player in players:
        _assert_view(components, player.client.get(match_url(match_id)).json())
        page = player.client.get(match_url(match_id, "/moves")).json()
        _assert_shape(components, "MoveLog", page)
        members = {
            "bid": "BidLogEntry",
            "double": "DoubleLogEntry",
            "declare": "DeclareLogEntry",
            "play": "PlayLogEntry",
        }
        for entry in page["results"]:
            _assert_shape(components, members[entry["type"]], entry)
    play_until(players, match_id, lambda m: m.status != "active", rng)
    assert Match.objects.get(pk=match_id).status == "finished"
    final = players[1].client.get(match_url(match_id)).json()
    assert final["round"]["phase"] == "over"
    _assert_view(components, final)
    sheet = players[1].client.get(match_url(match_id, "/rounds")).json()
    _assert_shape(components, "ScoreSheet", sheet)
    for row in sheet["results"]:
        _assert_shape(components, "ScoreSheetRow", row)
    inbox = players[1].client.get("/api/v1/me/matches").json()
    for row in inbox["results"]:
        _assert_shape(components, "InboxEntry", row)
