"""A whole match of four human accounts played through HTTP only (issue: game service)."""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest

from games.engine.record import replay
from tests.support.players import Player


def play_to_end(match_id: int, players: list[Player], rng: random.Random, limit: int = 5000):
    """Every move picked from the acting seat's own legal_moves (or its suggested projects)."""
    views: list[dict[str, Any]] = []
    for _ in range(limit):
        view = players[0].client.get(f"/api/v1/matches/{match_id}").json()
        if view["status"] != "active":
            return view, views
        seat = view["round"]["to_act"]
        mine = players[seat].client.get(f"/api/v1/matches/{match_id}").json()
        views.append(mine)
        rnd = mine["round"]
        if rnd["projects_suggested"] and rng.random() < 0.8:
            move = {"type": "declare", "projects": rnd["projects_suggested"]}
        else:
            assert rnd["legal_moves"], rnd
            move = rng.choice(rnd["legal_moves"])
        response = players[seat].client.post(
            f"/api/v1/matches/{match_id}/moves",
            {**move, "expected_version": mine["version"]},
            format="json",
        )
        assert response.status_code == 201, response.content
        assert response.json()["version"] == mine["version"] + 1
    raise AssertionError("match did not finish")


@pytest.mark.slow
def test_four_humans_play_a_match_to_the_end_and_the_record_replays(
    seeded_deals: None, table: Any
) -> None:
    view, players = table()
    final, _ = play_to_end(view["id"], players, random.Random(7))
    assert final["status"] == "finished"
    assert final["end_reason"] in ("target_reached", "gahwa")
    assert final["winner_team"] in (0, 1)

    record = players[1].client.get(f"/api/v1/matches/{view['id']}/record")
    assert record.status_code == 200
    output, code = replay(json.loads(record.content))
    assert code == 0, output["error"]
    assert output["finished"] is True
    assert output["winner"] == final["winner_team"]
    assert output["scores"] == final["scores"]

    sheet = players[2].client.get(f"/api/v1/matches/{view['id']}/rounds").json()
    assert sheet["results"][-1]["totals"] == final["scores"]


@pytest.mark.slow
def test_each_rounds_commitment_is_shown_from_its_start_and_matches_the_revealed_deck(
    seeded_deals: None, table: Any
) -> None:
    """api.md "Fair dealing": the view shows `deck_commitment` from the first moment of a
    round; the round's record later reveals deck and salt, which hash to exactly it."""
    # A short match, but one of several rounds, so that a round's commitment is also checked
    # under `previous_round`: random play to 100 can still end in one round (a Gahwa, or a
    # doubled kaboot), in which case the next seed plays another match.
    for seed in range(3, 8):
        view, players = table(target=100)
        match_id = view["id"]
        _, views = play_to_end(match_id, players, random.Random(seed))
        if len({v["round"]["number"] for v in views}) >= 2:
            break
    seen: dict[int, str] = {}
    for v in views:
        rnd = v["round"]
        assert rnd["deck_commitment"] is not None
        # One commitment per round, never changing during it.
        assert seen.setdefault(rnd["number"], rnd["deck_commitment"]) == rnd["deck_commitment"]
        if v["previous_round"] is not None:
            prev = v["previous_round"]
            assert prev["deck_commitment"] == seen[prev["number"]]
    assert len(seen) >= 2
    for number, shown in seen.items():
        record = players[0].client.get(f"/api/v1/matches/{match_id}/rounds/{number}/record")
        assert record.status_code == 200
        rnd = record.json()["rounds"][0]
        digest = hashlib.sha256(f"{rnd['salt']}:{','.join(rnd['deck'])}".encode()).hexdigest()
        assert digest == shown == rnd["commitment"]
