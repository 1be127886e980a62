"""The replay viewer's page (admin/games/match/<id>/rounds/<n>/replay/): who may open it, what
it embeds, and the links to it from the match page and the rounds list."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.admin.replay import round_replay
from games.models import Match, Round
from tests.support.replay import Table, replay_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(table: Table, monkeypatch: pytest.MonkeyPatch) -> Match:
    return replay_match(table, monkeypatch)


def replay_url(match: Match, number: int) -> str:
    return f"/admin/games/match/{match.pk}/rounds/{number}/replay/"


def embedded(html: str) -> Any:
    start = html.index('<script id="replay-data" type="application/json">')
    body = html[html.index(">", start) + 1 : html.index("</script>", start)]
    return json.loads(body)


def test_a_moderator_sees_each_round_replayed_from_the_page_data(
    match: Match, mod_client: Client
) -> None:
    assert reverse("admin:games_match_round_replay", args=[match.pk, 1]) == replay_url(match, 1)
    for number in (1, 2):  # a finished round and the round in play
        response = mod_client.get(replay_url(match, number))
        assert response.status_code == 200
        html = response.content.decode()
        expected = round_replay(match, Round.objects.get(match=match, number=number))
        assert embedded(html) == json.loads(json.dumps(expected))
        for element in ('id="replay-step"', 'id="replay-trick"', 'data-hand="3"'):
            assert element in html
        assert 'data-trick-seat="0"' in html and 'id="replay-next"' in html
        assert "<script src" not in html.split('id="content"')[1]  # nothing loaded from outside
    html = mod_client.get(replay_url(match, 2)).content.decode()
    assert "still being played" in html
    assert replay_url(match, 1) in html  # the previous round's viewer


def test_staff_without_the_moderators_group_are_refused(match: Match, staff_client: Client) -> None:
    assert staff_client.get(replay_url(match, 1)).status_code == 403


def test_a_player_is_sent_to_the_admin_login(match: Match, player_client: Client) -> None:
    response = player_client.get(replay_url(match, 1))
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    assert Client().get(replay_url(match, 1)).status_code == 302  # nor anyone signed out


def test_an_unknown_round_or_match_is_404(match: Match, mod_client: Client) -> None:
    assert mod_client.get(replay_url(match, 9)).status_code == 404
    assert (
        mod_client.get(f"/admin/games/match/{match.pk + 100}/rounds/1/replay/").status_code == 404
    )


def test_the_match_page_and_the_rounds_list_link_each_round_to_its_replay(
    match: Match, mod_client: Client
) -> None:
    page = mod_client.get(f"/admin/games/match/{match.pk}/change/").content.decode()
    assert replay_url(match, 1) in page and replay_url(match, 2) in page
    rounds = mod_client.get(f"/admin/games/round/?q={match.pk}").content.decode()
    assert replay_url(match, 1) in rounds and replay_url(match, 2) in rounds


def test_the_viewer_reads_in_the_admins_language(match: Match, mod_client: Client) -> None:
    response = mod_client.get(replay_url(match, 1), HTTP_ACCEPT_LANGUAGE="ar")
    html = response.content.decode()
    assert response.status_code == 200 and 'dir="rtl"' in html
    assert 'class="replay-table"' in html  # the table itself stays left to right (its CSS)
    assert "حكم" in embedded(html)["frames"][-1]["contract"]  # Hokum, in Arabic
