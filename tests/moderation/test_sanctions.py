"""Sanctions: a ban or suspension refuses the user's tokens at once (403 with a specific
code), blocks creating and joining, and sends their running seats away so the others' game
goes on with a bot. Suspensions end by themselves; nothing but access is restored."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import Sanction
from core.errors import DomainError
from games import services
from games.models import Match
from moderation import services as moderation
from moderation.models import ModerationAction, ModerationKind
from tests.support.api import API, assert_problem, view_of
from tests.support.players import create_match


def test_a_banned_users_token_is_refused_at_once_and_their_match_goes_on(
    table: Any, moderator: Any
) -> None:
    view, players = table()
    match = Match.objects.get(pk=view["id"])
    banned = players[match.to_act]  # the player on the clock, so the bot must answer now
    before = match.version
    assert banned.client.get(f"{API}/me").status_code == 200

    moderation.sanction_apply(
        moderator=moderator.user, user_id=banned.id, kind="ban", reason="cheating"
    )

    body = assert_problem(banned.client.get(f"{API}/me"), 403, "account_banned")
    assert "banned" in body["detail"]
    assert_problem(banned.client.get(f"{API}/matches/{match.pk}"), 403, "account_banned")
    # The seat went away through the services: version bumped, a bot is to play it now.
    match.refresh_from_db()
    assert match.version == before + 1
    seat = match.seats.get(user=banned.user)
    assert seat.away and match.deadline is not None
    others = [p for p in players if p is not banned]
    seen = view_of(others[0], match.pk)
    assert seen["seats"][seat.index]["away"] is True and seen["version"] == match.version
    assert seen["round"]["deadline"] is None  # not a human turn any more
    assert services.bot_turn_play(match_id=match.pk, expected_version=match.version)
    match.refresh_from_db()
    last = match.moves.last()
    assert last is not None
    assert (last.seat, last.actor) == (seat.index, "bot")
    entry = ModerationAction.objects.get()
    assert entry.kind == ModerationKind.SANCTION_APPLY and entry.target_user == banned.user
    assert entry.changes["seats"] == [
        {"match": match.pk, "seat": seat.index, "seat_now": "away", "version": [before, before + 1]}
    ]


def test_a_suspension_blocks_create_and_join_and_ends_by_itself(
    make_player: Any, moderator: Any
) -> None:
    host, suspended = make_player(), make_player()
    created = create_match(host, visibility="public")
    sanction = moderation.sanction_apply(
        moderator=moderator.user,
        user_id=suspended.id,
        kind="suspend",
        reason="abuse",
        ends_at=timezone.now() + timedelta(days=1),
    )
    assert_problem(
        suspended.client.post(f"{API}/matches", {}, format="json"), 403, "account_suspended"
    )
    assert_problem(
        suspended.client.post(f"{API}/matches/{created['id']}/join", {}, format="json"),
        403,
        "account_suspended",
    )
    # The services refuse too (a session login, or any other caller).
    with pytest.raises(DomainError) as refused:
        services.match_create(creator=suspended.user)
    assert (refused.value.code, refused.value.status_code) == ("account_suspended", 403)
    with pytest.raises(DomainError) as refused:
        services.match_join(match_id=created["id"], user=suspended.user)
    assert refused.value.code == "account_suspended"
    # Time passes: the suspension is over with no job run, and the same token works again.
    Sanction.objects.filter(pk=sanction.pk).update(ends_at=timezone.now() - timedelta(seconds=1))
    assert suspended.client.get(f"{API}/me").status_code == 200
    response = suspended.client.post(f"{API}/matches/{created['id']}/join", {}, format="json")
    assert response.status_code == 200, response.content


def test_lifting_restores_access_but_not_the_seat(table: Any, moderator: Any) -> None:
    view, players = table()
    sanction = moderation.sanction_apply(
        moderator=moderator.user, user_id=players[2].id, kind="ban", reason="x"
    )
    moderation.sanction_lift(moderator=moderator.user, sanction_id=sanction.pk, reason="appeal")
    assert players[2].client.get(f"{API}/me").status_code == 200
    seen = view_of(players[2], view["id"])
    assert seen["seats"][2]["away"] is True  # they take it back with `back` or a move
    response = players[2].client.post(f"{API}/matches/{view['id']}/back")
    assert response.status_code == 200 and response.json()["seats"][2]["away"] is False
    kinds = list(ModerationAction.objects.values_list("kind", flat=True))
    assert sorted(kinds) == [ModerationKind.SANCTION_APPLY, ModerationKind.SANCTION_LIFT]
    with pytest.raises(DomainError):
        moderation.sanction_lift(moderator=moderator.user, sanction_id=sanction.pk, reason="x")


def test_a_warning_changes_nothing_but_the_record(table: Any, moderator: Any) -> None:
    view, players = table()
    moderation.sanction_apply(
        moderator=moderator.user, user_id=players[1].id, kind="warn", reason="language"
    )
    assert players[1].client.get(f"{API}/me").status_code == 200
    assert view_of(players[1], view["id"])["version"] == view["version"]


def test_a_suspension_needs_an_end_in_the_future(make_player: Any, moderator: Any) -> None:
    target = make_player()
    with pytest.raises(DomainError):
        moderation.sanction_apply(
            moderator=moderator.user, user_id=target.id, kind="suspend", reason="x"
        )
    with pytest.raises(DomainError):
        moderation.sanction_apply(
            moderator=moderator.user,
            user_id=target.id,
            kind="suspend",
            reason="x",
            ends_at=timezone.now() - timedelta(minutes=1),
        )
    assert not Sanction.objects.exists() and not ModerationAction.objects.exists()


def test_a_sanctioned_players_seat_in_a_waiting_match_is_vacated(
    make_player: Any, moderator: Any
) -> None:
    host, guest = make_player(), make_player()
    created = create_match(host, visibility="public")
    guest.client.post(f"{API}/matches/{created['id']}/join", {}, format="json")
    moderation.sanction_apply(moderator=moderator.user, user_id=guest.id, kind="ban", reason="x")
    match = Match.objects.get(pk=created["id"])
    assert not match.seats.filter(user=guest.user).exists()
    assert match.status == "waiting" and match.version == created["version"] + 2
