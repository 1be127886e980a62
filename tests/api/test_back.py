"""``POST /matches/{id}/back``: an away player takes their seat back from the bot."""

from __future__ import annotations

from typing import Any

from games.models import Match, Seat

PROBLEM = "application/problem+json"


def _away(match_id: int, index: int, timeouts: int = 3) -> None:
    Seat.objects.filter(match_id=match_id, index=index).update(away=True, timeouts_in_row=timeouts)


def test_an_away_seat_comes_back_and_the_version_moves(table: Any) -> None:
    view, players = table()
    seat = view["round"]["to_act"]
    _away(view["id"], seat)
    before = Match.objects.get(pk=view["id"]).version

    response = players[seat].client.post(f"/api/v1/matches/{view['id']}/back")

    assert response.status_code == 200
    body = response.json()
    assert body["seats"][seat]["away"] is False
    assert body["version"] == before + 1
    # Their turn again: the clock shows, and the moves are theirs to make.
    assert body["round"]["deadline"] is not None
    assert body["round"]["legal_moves"]
    row = Seat.objects.get(match_id=view["id"], index=seat)
    assert (row.away, row.timeouts_in_row) == (False, 0)


def test_back_when_not_away_changes_nothing(table: Any) -> None:
    view, players = table()
    before = Match.objects.get(pk=view["id"]).version
    response = players[1].client.post(f"/api/v1/matches/{view['id']}/back")
    assert response.status_code == 200
    assert response.json()["version"] == before
    assert Match.objects.get(pk=view["id"]).version == before


def test_back_is_refused_to_outsiders_and_anonymous(
    table: Any, make_player: Any, anon: Any
) -> None:
    view, _ = table()  # private by default: outsiders get 404
    outsider = make_player()
    response = outsider.client.post(f"/api/v1/matches/{view['id']}/back")
    assert response.status_code == 404
    assert response["Content-Type"] == PROBLEM and response.json()["code"] == "not_found"

    public, _ = table(visibility="public")
    response = outsider.client.post(f"/api/v1/matches/{public['id']}/back")
    assert response.status_code == 403 and response.json()["code"] == "not_a_player"

    response = anon.post(f"/api/v1/matches/{view['id']}/back")
    assert response.status_code == 401 and response.json()["code"] == "not_authenticated"


def test_back_on_a_finished_match_is_a_conflict(table: Any) -> None:
    view, players = table()
    assert players[0].client.post(f"/api/v1/matches/{view['id']}/resign").status_code == 200
    response = players[1].client.post(f"/api/v1/matches/{view['id']}/back")
    assert response.status_code == 409 and response.json()["code"] == "match_not_active"
