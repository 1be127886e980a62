"""Rulesets are kept apart by everything the players' features do (issue 13, item 6): a
`saudi` match moves `saudi` ratings only, each ruleset has its own leaderboard and profile line,
and a rematch keeps the ruleset. (Quick play's queues per ruleset: test_matchmaking.py.)"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from players.models import Rating, RatingChange
from tests.support.api import match_url, play_a_round_out
from tests.support.players import Player

Table = Callable[..., tuple[dict[str, Any], list[Player]]]


def resign(player: Player, match_id: int) -> None:
    response = player.client.post(match_url(match_id, "/resign"), format="json")
    assert response.status_code == 200, response.content


def test_a_saudi_match_moves_saudi_ratings_only_and_each_board_is_its_own(
    table: Table, make_player: Callable[..., Player]
) -> None:
    view, players = table(ruleset="saudi", rated=True)
    play_a_round_out(players, view["id"])
    resign(players[1], view["id"])  # team 0 (seats 0 and 2) wins in saudi
    assert set(Rating.objects.values_list("ruleset", flat=True)) == {"saudi"}
    assert set(RatingChange.objects.values_list("ruleset", flat=True)) == {"saudi"}

    # Four others in gamerules: the saudi ratings do not move, nor join that board.
    saudi_before = {r.user_id: r.ordinal for r in Rating.objects.filter(ruleset="saudi")}
    again, others = table(rated=True)
    play_a_round_out(others, again["id"])
    resign(others[0], again["id"])
    assert {r.user_id: r.ordinal for r in Rating.objects.filter(ruleset="saudi")} == saudi_before
    assert Rating.objects.filter(ruleset="gamerules").count() == 4

    saudi_board = players[0].client.get("/api/v1/leaderboards/saudi").json()
    assert saudi_board["ruleset"] == "saudi"
    saudi_names = [row["username"] for row in saudi_board["results"]]
    assert sorted(saudi_names) == sorted(p.user.username for p in players)
    assert set(saudi_names[:2]) == {players[0].user.username, players[2].user.username}
    gamerules_board = players[0].client.get("/api/v1/leaderboards/gamerules").json()
    gamerules_names = {row["username"] for row in gamerules_board["results"]}
    assert gamerules_names == {p.user.username for p in others}
    assert saudi_board["me"]["rank"] in (1, 2)

    profile = make_player().client.get(f"/api/v1/players/{players[0].user.username}").json()
    assert [r["ruleset"] for r in profile["ratings"]] == ["saudi"]


def test_a_rematch_keeps_the_ruleset(table: Table) -> None:
    view, players = table(ruleset="saudi")
    resign(players[1], view["id"])
    for player in players:  # the first proposes, the others accept
        response = player.client.post(match_url(view["id"], "/rematch"), format="json")
        assert response.status_code in (200, 201), response.content
    body = response.json()
    assert body["status"] == "started", body
    new_id = body["new_match_id"]
    assert players[0].client.get(match_url(new_id)).json()["ruleset"] == "saudi"
