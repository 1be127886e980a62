"""PATCH /me: the display name (the registration's rules) and the language; the answer is
the profile GET /me answers. Refusals change nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.models import User
from tests.support.api import API, assert_field_errors, assert_problem
from tests.support.players import Player, create_match

ME = f"{API}/me"


def stored(player: Player) -> dict[str, Any]:
    return dict(User.objects.filter(pk=player.id).values("display_name", "language").get())


def test_the_display_name_and_language_change_and_the_answer_is_the_profile(
    make_player: Callable[..., Player],
) -> None:
    amal = make_player()
    assert amal.client.get(ME).json()["language"] is None

    response = amal.client.patch(ME, {"display_name": "  أمل  ", "language": "ar"}, format="json")

    assert response.status_code == 200, response.content
    body = response.json()
    assert body == amal.client.get(ME).json()  # the same shape and content as GET /me
    assert body["display_name"] == "أمل" and body["language"] == "ar"
    assert set(body["stats"]) >= {"played", "won", "abandoned"}
    assert stored(amal) == {"display_name": "أمل", "language": "ar"}


def test_only_the_fields_sent_change_and_a_null_language_follows_the_request_again(
    make_player: Callable[..., Player],
) -> None:
    amal = make_player()
    amal.client.patch(ME, {"display_name": "Amal", "language": "ar"}, format="json")

    response = amal.client.patch(ME, {"language": None}, format="json")

    assert response.status_code == 200, response.content
    assert response.json()["language"] is None
    assert stored(amal) == {"display_name": "Amal", "language": ""}
    assert amal.client.patch(ME, {}, format="json").json()["display_name"] == "Amal"


def test_seats_show_the_new_name(make_player: Callable[..., Player]) -> None:
    amal = make_player()
    created = create_match(amal)
    amal.client.patch(ME, {"display_name": "Layla"}, format="json")

    view = amal.client.get(f"{API}/matches/{created['id']}").json()

    assert view["seats"][0]["display_name"] == "Layla"


@pytest.mark.parametrize(
    ("body", "errors", "status", "code"),
    [
        # Well formed, refused by accounts.names: 422.
        ({"display_name": "Easy Bot"}, {"display_name": "reserved"}, 422, "display_name_reserved"),
        (
            {"display_name": "\u200b\u200b"},
            {"display_name": "invalid_character"},
            422,
            "invalid_display_name",
        ),
        (
            {"display_name": "   "},
            {"display_name": "no_visible_characters"},
            422,
            "invalid_display_name",
        ),
        # What the schema forbids: 400.
        ({"display_name": ""}, {"display_name": "blank"}, 400, "invalid"),
        ({"display_name": 7}, {"display_name": "invalid"}, 400, "invalid"),
        ({"language": "fr"}, {"language": "invalid_choice"}, 400, "invalid"),
        (
            {"display_name": "Amal", "username": "amal2"},
            {"username": "unknown_field"},
            400,
            "invalid",
        ),
    ],
)
def test_a_refused_edit_names_the_field_and_changes_nothing(
    make_player: Callable[..., Player],
    body: dict[str, Any],
    errors: dict[str, str],
    status: int,
    code: str,
) -> None:
    amal = make_player()
    before = stored(amal)

    response = amal.client.patch(ME, body, format="json")
    assert_field_errors(response, errors, status=status, code=code)

    assert stored(amal) == before


def test_anonymous_revoked_and_sanctioned_callers_may_not_edit(
    anon: APIClient, revoked: APIClient, banned: Player
) -> None:
    body = {"display_name": "Someone"}
    assert_problem(anon.patch(ME, body, format="json"), 401, "not_authenticated")
    assert_problem(revoked.patch(ME, body, format="json"), 401, "authentication_failed")
    before = stored(banned)
    assert_problem(banned.client.patch(ME, body, format="json"), 403, "account_banned")
    assert stored(banned) == before
