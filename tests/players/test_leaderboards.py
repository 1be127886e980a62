"""Leaderboards: all-time by rating and weekly by rating gained this ISO week, in a total
order (ties by account age), paginated, with the caller's own rank; deleted and banned
accounts left out; open to anonymous readers, refused to a bad token."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import AuthToken, Sanction
from accounts.services import token_revoke
from players.models import Rating, RatingChange, WeeklyGain
from players.selectors.ratings import week_of
from tests.support.api import assert_field_errors, assert_problem, match_url, play_a_round_out
from tests.support.players import Player

URL = "/api/v1/leaderboards/gamerules"
Table = Callable[..., tuple[dict[str, Any], list[Player]]]


def rated(player: Player, ordinal: float, matches: int = 12) -> Rating:
    return Rating.objects.create(
        user=player.user,
        ruleset="gamerules",
        mu=ordinal + 3,
        sigma=1.0,
        ordinal=ordinal,
        rated_matches=matches,
    )


def names(body: dict[str, Any]) -> list[str]:
    return [row["username"] for row in body["results"]]


@pytest.fixture
def field(make_player: Callable[..., Player]) -> list[Player]:
    """Five rated players: b and c tie (c joined later, so ranks after b)."""
    players = [make_player(name) for name in ("a", "b", "c", "d", "e")]
    for p, ordinal in zip(players, (10.0, 30.0, 30.0, 5.0, 20.0), strict=True):
        rated(p, ordinal)
    return players


def test_all_time_order_ranks_and_the_callers_own(field: list[Player]) -> None:
    body = field[3].client.get(URL).json()
    assert names(body) == ["b", "c", "e", "a", "d"]
    assert [row["rank"] for row in body["results"]] == [1, 2, 3, 4, 5]
    assert body["results"][0] == {
        "rank": 1,
        "username": "b",
        "display_name": field[1].user.display_name,
        "avatar": None,
        "rating": 30.0,
        "rated_matches": 12,
        "provisional": False,
        "gained": None,
        "matches_this_week": None,
    }
    assert body["me"]["rank"] == 5 and body["me"]["username"] == "d"
    assert (body["period"], body["ruleset"], body["week_start"], body["next"]) == (
        "all",
        "gamerules",
        None,
        None,
    )


def test_pages_walk_the_board_once_with_continuing_ranks(field: list[Player]) -> None:
    seen: list[tuple[int, str]] = []
    url: str | None = f"{URL}?page_size=2"
    while url is not None:
        body = field[0].client.get(url).json()
        assert len(body["results"]) <= 2
        seen += [(row["rank"], row["username"]) for row in body["results"]]
        assert body["me"]["rank"] == 4  # the caller's place on every page
        url = body["next"]
    assert seen == [(1, "b"), (2, "c"), (3, "e"), (4, "a"), (5, "d")]


def test_deleted_and_banned_accounts_are_left_out(
    field: list[Player], make_player: Callable[..., Player]
) -> None:
    field[1].user.deleted_at = timezone.now()  # b, first
    field[1].user.is_active = False
    field[1].user.save()
    staff = make_player()
    Sanction.objects.create(
        user=field[4].user, kind="ban", reason="cheating", created_by=staff.user
    )
    # A suspension that is over, and a warning, change nothing.
    Sanction.objects.create(
        user=field[2].user,
        kind="suspend",
        reason="x",
        created_by=staff.user,
        starts_at=timezone.now() - timedelta(days=3),
        ends_at=timezone.now() - timedelta(days=1),
    )
    body = field[3].client.get(f"{URL}?page_size=1").json()
    assert names(body) == ["c"] and body["results"][0]["rank"] == 1
    assert body["me"]["rank"] == 3  # behind c and a, no longer behind b and e
    second = field[3].client.get(body["next"]).json()
    assert names(second) == ["a"] and second["results"][0]["rank"] == 2


def test_weekly_board_ranks_this_weeks_gains(
    table: Table, make_player: Callable[..., Player]
) -> None:
    view, players = table(rated=True)
    play_a_round_out(players, view["id"])
    response = players[1].client.post(match_url(view["id"], "/resign"), format="json")
    assert response.status_code == 200
    # Last week's gains and an all-time-only player are not on this week's board.
    old = make_player("veteran")
    rated(old, 40.0)
    WeeklyGain.objects.create(
        user=old.user,
        ruleset="gamerules",
        week=week_of(timezone.now()) - timedelta(days=7),
        gained=15.0,
        matches=3,
    )
    body = players[3].client.get(f"{URL}?period=week").json()
    assert body["week_start"] == week_of(timezone.now()).isoformat()
    rows = body["results"]
    assert {row["username"] for row in rows} == {p.user.username for p in players}
    assert [row["rank"] for row in rows] == [1, 2, 3, 4]
    gains = [row["gained"] for row in rows]
    assert gains == sorted(gains, reverse=True) and gains[0] > 0 > gains[-1]
    for row in rows:
        deltas = RatingChange.objects.filter(
            user__username=row["username"], created_at__date__gte=week_of(timezone.now())
        )
        assert row["gained"] == round(sum(c.delta for c in deltas), 1)
        assert row["matches_this_week"] == 1 and row["provisional"] is True
        assert row["rating"] == round(Rating.objects.get(user__username=row["username"]).ordinal, 1)
    assert body["me"]["username"] == players[3].user.username
    assert body["me"]["rank"] == [r["username"] for r in rows].index(players[3].user.username) + 1
    # Someone rated but with no match this week has no weekly place.
    assert old.client.get(f"{URL}?period=week").json()["me"] is None
    assert old.client.get(URL).json()["me"]["rank"] == 1


def test_anonymous_may_read_and_has_no_place(field: list[Player]) -> None:
    body = APIClient().get(URL).json()
    assert names(body) == ["b", "c", "e", "a", "d"] and body["me"] is None


def test_an_unrated_caller_has_no_place(
    field: list[Player], make_player: Callable[..., Player]
) -> None:
    assert make_player().client.get(URL).json()["me"] is None


def test_a_revoked_token_is_refused(field: list[Player]) -> None:
    token_revoke(token=AuthToken.objects.get(user=field[0].user))
    assert_problem(field[0].client.get(URL), 401, "authentication_failed")


def test_a_banned_caller_is_refused(
    field: list[Player], make_player: Callable[..., Player]
) -> None:
    staff = make_player()
    Sanction.objects.create(user=field[0].user, kind="ban", reason="x", created_by=staff.user)
    assert_problem(field[0].client.get(URL), 403, "account_banned")


def test_unknown_ruleset_bad_period_bad_cursor(field: list[Player]) -> None:
    client = field[0].client
    assert_problem(client.get("/api/v1/leaderboards/chess"), 404, "unknown_ruleset")
    assert_problem(APIClient().get("/api/v1/leaderboards/chess"), 404, "unknown_ruleset")
    response = client.get(f"{URL}?period=month")
    assert_problem(response, 400, "invalid")
    assert_field_errors(response, {"period": "invalid"})
    assert_problem(client.get(f"{URL}?page_size=0"), 400, "invalid")
    for cursor in ("x", "WyJhIiwxXQ", "W251bGwsMV0", "WzEuMCwiMSJd"):
        assert_problem(client.get(f"{URL}?cursor={cursor}"), 404, "not_found")


def test_answers_hold_exactly_what_the_schema_documents(field: list[Player]) -> None:
    from drf_spectacular.generators import SchemaGenerator

    components = SchemaGenerator().get_schema(request=None, public=True)["components"]["schemas"]

    def same(name: str, body: dict[str, Any]) -> None:
        assert list(body) == list(components[name]["properties"]), name
        assert set(components[name].get("required", ())) <= set(body), name

    body = field[0].client.get(f"{URL}?page_size=1").json()
    same("Leaderboard", body)
    same("LeaderboardEntry", body["me"])
    same("LeaderboardEntry", body["results"][0])
    profile = field[0].client.get("/api/v1/players/b").json()
    same("PlayerProfile", profile)
    same("PlayerRating", profile["ratings"][0])
