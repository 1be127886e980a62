"""``GET /players/{username}``: a player's public face (display name, ratings per ruleset,
statistics) and nothing private; a deleted account is gone."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import AuthToken, Sanction
from accounts.services import token_revoke
from players.models import Rating
from tests.support.api import assert_problem, match_url, play_a_round_out
from tests.support.players import Player, create_match

Table = Callable[..., tuple[dict[str, Any], list[Player]]]


def url(player: Player) -> str:
    return f"/api/v1/players/{player.user.username}"


def test_a_profile_shows_name_ratings_and_statistics(
    table: Table, make_player: Callable[..., Player]
) -> None:
    view, players = table(rated=True)
    play_a_round_out(players, view["id"])
    assert (
        players[1].client.post(match_url(view["id"], "/resign"), format="json").status_code == 200
    )
    # A private match the viewer does not sit in: counted in the statistics, never named.
    hidden = create_match(players[2])
    players[2].user.email = "layla@example.com"
    players[2].user.save()
    outsider = make_player()
    response = outsider.client.get(url(players[2]))
    assert response.status_code == 200
    body = response.json()
    assert list(body) == ["username", "display_name", "avatar", "ratings", "stats"]
    assert body["username"] == players[2].user.username
    assert body["display_name"] == players[2].user.display_name
    rating = Rating.objects.get(user=players[2].user)
    assert body["ratings"] == [
        {
            "ruleset": "gamerules",
            "rating": round(rating.ordinal, 1),
            "mu": round(rating.mu, 3),
            "sigma": round(rating.sigma, 3),
            "rated_matches": 1,
            "provisional": True,
        }
    ]
    assert body["stats"]["played"] == 1 and body["stats"]["won"] == 1
    text = response.content.decode()
    assert "layla@example.com" not in text and "email" not in text
    assert hidden["invite_code"] not in text and f'"id": {hidden["id"]}' not in text


def test_a_player_with_no_rated_match_has_no_ratings(make_player: Callable[..., Player]) -> None:
    someone, viewer = make_player(), make_player()
    body = viewer.client.get(url(someone)).json()
    assert body["ratings"] == [] and body["stats"]["played"] == 0


def test_a_deleted_account_and_an_unknown_name_are_not_found(
    make_player: Callable[..., Player],
) -> None:
    gone, viewer = make_player(), make_player()
    gone.user.deleted_at = timezone.now()
    gone.user.is_active = False
    gone.user.save()
    assert_problem(viewer.client.get(url(gone)), 404, "user_not_found")
    assert_problem(viewer.client.get("/api/v1/players/nobody-here"), 404, "user_not_found")


def test_anonymous_revoked_and_banned_callers_are_refused(
    make_player: Callable[..., Player],
) -> None:
    someone, revoked, banned, staff = (make_player() for _ in range(4))
    assert_problem(APIClient().get(url(someone)), 401, "not_authenticated")
    token_revoke(token=AuthToken.objects.get(user=revoked.user))
    assert_problem(revoked.client.get(url(someone)), 401, "authentication_failed")
    Sanction.objects.create(user=banned.user, kind="ban", reason="x", created_by=staff.user)
    assert_problem(banned.client.get(url(someone)), 403, "account_banned")
