"""An avatar is shown wherever a name is: every seat of a match view (a player's, a bot's,
none for an empty seat), the public profile, each leaderboard row, the friends and blocks
lists, invitations, and the sign-in answers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from players.models import Rating
from tests.support.api import API
from tests.support.pictures import jpeg
from tests.support.players import PASSWORD, Player, create_match

PALM = {"kind": "catalog", "id": "palm", "url": "/static/avatars/palm.png"}


def with_picture(player: Player) -> dict[str, Any]:
    response = player.client.put(f"{API}/me/avatar", data=jpeg(), content_type="image/jpeg")
    assert response.status_code == 200, response.content
    return response.json()


def with_palm(player: Player) -> None:
    assert player.client.patch(f"{API}/me", {"avatar": "palm"}, format="json").status_code == 200


def test_each_seat_shows_its_players_avatar_its_bots_or_none(
    make_player: Callable[..., Player],
) -> None:
    amal, omar = make_player(), make_player()
    with_palm(amal)
    picture = with_picture(omar)
    created = create_match(amal, bots={"2": "hard"}, visibility="public")
    joined = omar.client.post(f"{API}/matches/{created['id']}/join", {"seat": 1}, format="json")
    assert joined.status_code == 200, joined.content

    for viewer in (amal, omar, make_player()):  # seated players and a spectator-to-be
        seats = viewer.client.get(f"{API}/matches/{created['id']}").json()["seats"]
        assert [seat["avatar"] for seat in seats] == [
            PALM,
            picture,
            {"kind": "bot", "id": "hard", "url": "/static/avatars/bot-hard.png"},
            None,  # empty
        ]


def test_the_lists_of_matches_show_the_avatars_too(make_player: Callable[..., Player]) -> None:
    amal = make_player()
    with_palm(amal)
    create_match(amal)
    rows = amal.client.get(f"{API}/me/matches").json()["results"]
    assert rows[0]["seats"][0]["avatar"] == PALM


def test_the_public_profile_and_the_leaderboard_row_show_the_avatar(
    make_player: Callable[..., Player],
) -> None:
    layla, reader = make_player("layla"), make_player()
    picture = with_picture(layla)
    Rating.objects.create(
        user=layla.user, ruleset="gamerules", mu=33, sigma=1, ordinal=30, rated_matches=12
    )
    assert reader.client.get(f"{API}/players/layla").json()["avatar"] == picture
    board = reader.client.get(f"{API}/leaderboards/gamerules").json()
    assert board["results"][0]["avatar"] == picture
    assert layla.client.get(f"{API}/leaderboards/gamerules").json()["me"]["avatar"] == picture


def test_friends_blocks_and_invitations_show_the_avatar(make_player: Callable[..., Player]) -> None:
    amal, layla = make_player(), make_player("layla")
    with_palm(layla)
    amal.client.post(f"{API}/me/friends", {"username": "layla"}, format="json")
    assert amal.client.get(f"{API}/me/friends").json()["results"][0]["avatar"] == PALM
    amal.client.post(f"{API}/me/blocks", {"username": "layla"}, format="json")
    assert amal.client.get(f"{API}/me/blocks").json()["results"][0]["avatar"] == PALM

    with_palm(amal)
    omar = make_player("omar")
    created = create_match(amal, visibility="private")
    invited = amal.client.post(
        f"{API}/matches/{created['id']}/invitations", {"username": "omar"}, format="json"
    )
    assert invited.status_code == 201, invited.content
    assert invited.json()["inviter"]["avatar"] == PALM
    assert (
        omar.client.get(f"{API}/me/invitations").json()["results"][0]["inviter"]["avatar"] == PALM
    )


def test_the_sign_in_answer_carries_the_avatar(
    make_player: Callable[..., Player], anon: Any
) -> None:
    amal = make_player("amal")
    with_palm(amal)
    answer = anon.post(
        f"{API}/auth/login", {"username": "amal", "password": PASSWORD}, format="json"
    ).json()
    assert answer["user"]["avatar"] == PALM


def test_a_deleted_players_seat_shows_no_avatar(make_player: Callable[..., Player]) -> None:
    amal, omar = make_player(), make_player()
    with_picture(omar)
    created = create_match(amal, visibility="public")
    joined = omar.client.post(f"{API}/matches/{created['id']}/join", {"seat": 1}, format="json")
    assert joined.status_code == 200, joined.content
    assert omar.client.delete(f"{API}/me", {"password": PASSWORD}, format="json").status_code == 204
    seats = amal.client.get(f"{API}/matches/{created['id']}").json()["seats"]
    assert all(seat["avatar"] is None for seat in seats[1:])
