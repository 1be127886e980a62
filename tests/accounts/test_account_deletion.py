"""DELETE /me: the password confirms; personal data is erased, every token revoked; waiting
seats are freed, running seats go to a bot for good, finished matches keep their records
(which still replay) with the seat under the anonymous name; other players' statistics do not
change. The old credentials then fail as a wrong password does, and the username is free."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.conf import settings
from rest_framework.test import APIClient

from accounts.models import AuthToken, User
from core import events
from games import services
from games.engine.record import replay
from games.events import SeatHandedToBot
from games.models import Match
from live import auth as live_auth
from live.push.models import Device, Notification, Preferences
from tests.support.api import API, assert_field_errors, assert_problem, finish_round, view_of
from tests.support.auth import login, register
from tests.support.players import PASSWORD, Player, create_match

ME = f"{API}/me"


def delete_account(player: Player, password: str = PASSWORD) -> Any:
    return player.client.delete(ME, {"password": password}, format="json")


def deleted(player: Player) -> None:
    response = delete_account(player)
    assert response.status_code == 204, response.content


def stats(player: Player) -> dict[str, int]:
    response = player.client.get(ME)
    assert response.status_code == 200, response.content
    return response.json()["stats"]


def join(player: Player, match_id: int, **body: Any) -> None:
    response = player.client.post(f"{API}/matches/{match_id}/join", body, format="json")
    assert response.status_code == 200, response.content


@pytest.fixture
def handed_to_bot() -> Iterator[list[SeatHandedToBot]]:
    seen: list[SeatHandedToBot] = []
    events.subscribe(SeatHandedToBot, seen.append)
    yield seen
    events.unsubscribe(SeatHandedToBot, seen.append)


# --- The account ------------------------------------------------------------------------------


def test_personal_data_is_erased_and_every_token_revoked(
    make_player: Callable[..., Player], anon: APIClient
) -> None:
    amal = make_player("amal")
    User.objects.filter(pk=amal.id).update(
        email="amal@example.com", first_name="Amal", last_name="Salem", language="ar"
    )
    phone = APIClient()
    phone.credentials(HTTP_AUTHORIZATION=f"Bearer {login(anon, 'amal').json()['token']}")
    tokens = list(AuthToken.objects.filter(user=amal.user).values_list("pk", flat=True))
    assert [live_auth.standing(pk) for pk in tokens] == [None, None]

    deleted(amal)

    user = User.objects.get(pk=amal.id)
    assert user.username == f"deleted-{amal.id}"
    assert (user.display_name, user.email, user.first_name, user.last_name) == ("", "", "", "")
    assert user.language == "" and user.last_login is None
    assert not user.has_usable_password() and not user.is_active
    assert user.deleted_at is not None
    assert not AuthToken.objects.filter(user=user, revoked_at__isnull=True).exists()
    for client in (amal.client, phone):
        assert_problem(client.get(ME), 401, "authentication_failed")
    # An open stream re-checks its token every few seconds (live.consumers) and closes 4401.
    assert [live_auth.standing(pk) for pk in tokens] == [live_auth.NOT_AUTHENTICATED] * 2


def test_the_old_credentials_fail_as_a_wrong_password_and_the_username_is_free_again(
    make_player: Callable[..., Player], anon: APIClient
) -> None:
    make_player("someone")
    amal = make_player("amal")
    deleted(amal)

    gone = login(anon, "amal")
    wrong = login(anon, "someone", "not the password")

    assert_problem(gone, 401, "authentication_failed")
    assert gone.json() == wrong.json()
    again = register(anon, "amal")
    assert again.status_code == 201, again.content
    assert again.json()["user"]["id"] != amal.id
    # The anonymous names cannot be registered, so no living account can hold the next one.
    assert_field_errors(
        register(anon, "Deleted-12345"),
        {"username": "reserved"},
        status=422,
        code="username_reserved",
    )


def test_push_devices_preferences_and_notifications_go(make_player: Callable[..., Player]) -> None:
    amal = make_player()
    response = amal.client.post(
        f"{API}/me/devices", {"platform": "fcm", "token": "fcm-token-amal"}, format="json"
    )
    assert response.status_code == 201, response.content
    amal.client.patch(f"{API}/me/notifications", {"match_started": False}, format="json")
    others = make_player()
    response = others.client.post(
        f"{API}/me/devices", {"platform": "fcm", "token": "fcm-token-other"}, format="json"
    )
    assert response.status_code == 201, response.content
    assert Preferences.objects.filter(user_id=amal.id).exists()

    deleted(amal)

    for rows in (Device, Preferences, Notification):
        assert not rows.objects.filter(user_id=amal.id).exists()
    assert Device.objects.filter(user_id=others.id).count() == 1


def test_a_wrong_or_missing_password_is_refused_and_changes_nothing(
    make_player: Callable[..., Player],
) -> None:
    amal = make_player()
    created = create_match(amal)
    before = User.objects.filter(pk=amal.id).values().get()
    version = Match.objects.get(pk=created["id"]).version

    body = assert_problem(delete_account(amal, "not my password"), 422, "wrong_password")
    assert [(e["field"], e["code"]) for e in body["errors"]] == [("password", "wrong_password")]
    assert_field_errors(amal.client.delete(ME, {}, format="json"), {"password": "required"})
    assert_field_errors(
        amal.client.delete(ME, {"password": PASSWORD, "why": "x"}, format="json"),
        {"why": "unknown_field"},
    )

    assert User.objects.filter(pk=amal.id).values().get() == before
    assert Match.objects.get(pk=created["id"]).version == version
    assert amal.client.get(ME).status_code == 200


def test_anonymous_and_revoked_callers_are_refused(anon: APIClient, revoked: APIClient) -> None:
    body = {"password": PASSWORD}
    assert_problem(anon.delete(ME, body, format="json"), 401, "not_authenticated")
    assert_problem(revoked.delete(ME, body, format="json"), 401, "authentication_failed")


def test_a_banned_player_may_still_delete_their_account(banned: Player) -> None:
    assert_problem(banned.client.get(ME), 403, "account_banned")
    assert_problem(delete_account(banned, "not my password"), 422, "wrong_password")

    deleted(banned)

    assert User.objects.get(pk=banned.id).deleted_at is not None


# --- The matches --------------------------------------------------------------------------------


def test_a_waiting_seat_is_freed_and_the_table_goes_on_without_its_creator(
    make_player: Callable[..., Player],
) -> None:
    creator, joiner = make_player(), make_player()
    match_id = create_match(creator, visibility="public")["id"]
    join(joiner, match_id, seat=2)

    deleted(creator)

    match = Match.objects.get(pk=match_id)
    # As when a creator leaves: the table is the next human's now.
    assert match.status == "waiting" and match.created_by_id == joiner.id
    view = view_of(joiner, match_id)
    assert view["seats"][0]["display_name"] is None
    assert view["seats"][2]["display_name"] == joiner.user.display_name
    for player in (make_player(), make_player(), make_player()):
        join(player, match_id)
    assert view_of(joiner, match_id)["status"] == "active"


def test_a_joiner_leaves_a_waiting_table_and_a_creator_alone_aborts_it(
    make_player: Callable[..., Player],
) -> None:
    creator, joiner = make_player(), make_player()
    shared = create_match(creator, visibility="public")["id"]
    join(joiner, shared, seat=1)
    alone = create_match(joiner, visibility="public")["id"]

    deleted(joiner)

    assert view_of(creator, shared)["seats"][1]["display_name"] is None
    assert Match.objects.get(pk=shared).status == "waiting"
    assert Match.objects.get(pk=alone).status == "aborted"  # as when its last human leaves


def test_an_active_seat_goes_to_a_bot_for_good_and_the_bot_plays_on(
    table: Callable[..., Any], handed_to_bot: list[SeatHandedToBot]
) -> None:
    view, players = table()
    match_id = view["id"]
    seat = Match.objects.get(pk=match_id).to_act
    assert seat is not None
    leaving = players[seat]
    others = [p for p in players if p is not leaving]
    before = {p.id: stats(p) for p in others}
    version = view["version"]

    deleted(leaving)

    match = Match.objects.get(pk=match_id)
    held = match.seats.get(index=seat)
    assert (held.user_id, held.bot, held.away) == (None, "normal", False)
    assert match.version == version + 1
    assert handed_to_bot == [
        SeatHandedToBot(
            match_id=match_id, version=match.version, seat=seat, user_id=leaving.id, reason="staff"
        )
    ]
    seen = view_of(others[0], match_id)
    assert seen["status"] == "active" and seen["seats"][seat]["bot"] == "normal"
    assert services.bot_turn_play(match_id=match_id, expected_version=match.version)
    last = Match.objects.get(pk=match_id).moves.last()
    assert last is not None and (last.seat, last.actor) == (seat, "bot")
    assert {p.id: stats(p) for p in others} == before


def test_a_finished_match_keeps_its_record_which_still_replays(
    table: Callable[..., Any],
) -> None:
    view, players = table()
    match_id = view["id"]
    finish_round(players, match_id, random.Random(3))
    response = players[1].client.post(f"{API}/matches/{match_id}/resign", format="json")
    assert response.status_code == 200, response.content
    leaving, reader = players[0], players[2]
    old_name = leaving.user.display_name
    record_before = reader.client.get(f"{API}/matches/{match_id}/record").json()
    before = {p.id: stats(p) for p in players[1:]}
    assert record_before["rounds"], "a round was played out"

    deleted(leaving)

    response = reader.client.get(f"{API}/matches/{match_id}/record")
    assert response.status_code == 200, response.content
    record = response.json()
    assert record == record_before
    output, code = replay(json.loads(response.content))
    assert code == 0, output["error"]
    assert output["scores"] == record["result"]["scores"]
    final = view_of(reader, match_id)
    assert final["status"] == "finished"
    assert final["seats"][0]["display_name"] == f"deleted-{leaving.id}"
    names = json.dumps(final, ensure_ascii=False) + json.dumps(record, ensure_ascii=False)
    assert f'"{old_name}"' not in names and leaving.user.username not in names
    assert {p.id: stats(p) for p in players[1:]} == before


def test_wrong_passwords_lock_the_deletion_like_failed_logins(
    make_player: Callable[..., Player], anon: APIClient
) -> None:
    amal = make_player()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert_problem(delete_account(amal, "not my password"), 422, "wrong_password")

    assert_problem(delete_account(amal, "not my password"), 429, "login_locked")

    assert_problem(delete_account(amal), 429, "login_locked")
    assert_problem(login(anon, amal.user.username), 429, "login_locked")
    user = User.objects.get(pk=amal.id)
    assert user.is_active and user.deleted_at is None
    assert amal.client.get(ME).status_code == 200
