"""Quick play through the API: asking, waiting, being seated, cancelling.

Four players of similar rating are seated together with balanced teams; the band widens with
the time waited (the turn rules' clock, set by hand); players who block each other are never
seated together; bots fill the empty seats after the wait a player chose; refusals answer
the problem shape with a specific code and change nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import AuthToken, SanctionKind
from accounts.services import token_revoke
from games.models import Match, MatchStatus, Seat
from moderation import services as moderation
from players.models import Block, Rating, Ticket, TicketStatus
from players.tasks import place_waiting_players
from tests.support.api import API, assert_field_errors, assert_problem, view_of
from tests.support.clock import FakeClock
from tests.support.players import Player

URL = f"{API}/matchmaking"
LIVE = {"ruleset": "gamerules", "turn_seconds": 30, "bots_after_seconds": None}


def ask(player: Player, **body: Any) -> Any:
    return player.client.post(URL, {**LIVE, **body}, format="json")


def ticket_of(player: Player) -> dict[str, Any]:
    response = player.client.get(URL)
    assert response.status_code == 200, response.content
    return response.json()


def rate(player: Player, ordinal: float) -> None:
    Rating.objects.create(user=player.user, ruleset="gamerules", mu=ordinal + 25, ordinal=ordinal)


def tickets_state() -> list[tuple[Any, ...]]:
    return list(Ticket.objects.order_by("pk").values_list("pk", "user_id", "status", "match_id"))


def seats_of(match_id: int) -> list[Seat]:
    return list(Seat.objects.filter(match_id=match_id).order_by("index"))


def table_of(match_id: int) -> set[int]:
    return {s.user_id for s in seats_of(match_id) if s.user_id is not None}


# --- Placement ------------------------------------------------------------------------------


def test_four_players_asking_are_seated_and_each_learns_the_match(
    make_player: Callable[..., Player], clock: FakeClock
) -> None:
    players = [make_player() for _ in range(4)]
    for player in players[:3]:
        answer = ask(player)
        assert answer.status_code == 201, answer.content
        assert answer.json()["status"] == "waiting" and answer.json()["match_id"] is None
        assert answer.json()["band"] == 3.0
    assert not Match.objects.exists()
    fourth = ask(players[3])
    assert fourth.status_code == 201
    body = fourth.json()
    assert body["status"] == "placed" and body["match_id"] is not None
    match_id = body["match_id"]
    for player in players:
        ticket = ticket_of(player)
        assert ticket["status"] == "placed" and ticket["match_id"] == match_id
        view = view_of(player, match_id)
        assert view["status"] == "active" and view["my_seat"] is not None
        # Only the caller's own hand: the others' cards are never in the view.
        assert len(view["round"]["hand"]) in (5, 8)
        inbox = player.client.get(f"{API}/me/matches").json()["results"]
        assert [m["id"] for m in inbox] == [match_id]
    match = Match.objects.get(pk=match_id)
    assert match.visibility == "private" and match.turn_seconds == 30
    assert table_of(match_id) == {p.id for p in players}
    assert all(not s.bot for s in seats_of(match_id))
    # An outsider does not see the table.
    outsider = make_player()
    assert_problem(outsider.client.get(f"{API}/matches/{match_id}"), 404, "not_found")


def test_only_the_same_ruleset_and_speed_share_a_table(
    make_player: Callable[..., Player], clock: FakeClock
) -> None:
    players = [make_player() for _ in range(4)]
    for player in players[:3]:
        ask(player)
    ask(players[3], turn_seconds=60)
    place_waiting_players()
    assert all(ticket_of(p)["status"] == "waiting" for p in players)
    assert not Match.objects.exists()


def test_teams_are_balanced_by_rating(make_player: Callable[..., Player], clock: FakeClock) -> None:
    players = [make_player() for _ in range(4)]
    # The first to ask (rated 0) anchors the table; 0 + 3 against 1 + 2 is the even split,
    # where asking order would pair 0 with 1.
    for player, ordinal in zip(players, (0.0, 1.0, 2.0, 3.0), strict=True):
        rate(player, ordinal)
    for player in players:
        ask(player)
    match_id = ticket_of(players[0])["match_id"]
    assert match_id is not None
    seats = seats_of(match_id)
    team0 = {seats[0].user_id, seats[2].user_id}
    assert team0 == {players[0].id, players[3].id}
    assert seats[0].user_id == players[0].id  # the anchor keeps seat 0


def test_the_band_widens_with_the_wait(
    make_player: Callable[..., Player], clock: FakeClock
) -> None:
    low = [make_player() for _ in range(2)]
    high = [make_player() for _ in range(2)]
    for player in high:
        rate(player, 10.0)
    for player in low + high:
        assert ask(player).json()["status"] == "waiting"
    clock.advance(30)  # band 3 + 30/5 = 9 < 10: still two players too far apart
    assert place_waiting_players() == 0
    waiting = ticket_of(low[0])
    assert waiting["status"] == "waiting"
    assert waiting["waited_seconds"] == 30 and waiting["band"] == 9.0
    clock.advance(5)  # band 10: within reach
    assert place_waiting_players() == 1
    match_id = ticket_of(low[0])["match_id"]
    assert match_id is not None
    assert table_of(match_id) == {p.id for p in low + high}
    placed = ticket_of(high[1])
    assert placed["status"] == "placed" and placed["waited_seconds"] == 35
    # Balanced: one low and one high player in each team.
    seats = seats_of(match_id)
    assert {seats[0].user_id, seats[2].user_id} & {p.id for p in high}
    assert {seats[0].user_id, seats[2].user_id} & {p.id for p in low}


def test_the_band_is_capped(make_player: Callable[..., Player], clock: FakeClock) -> None:
    players = [make_player() for _ in range(4)]
    rate(players[3], 31.0)
    for player in players:
        ask(player)
    clock.advance(3600)
    place_waiting_players()
    assert ticket_of(players[0])["band"] == 30.0
    assert all(ticket_of(p)["status"] == "waiting" for p in players)


def test_players_who_block_each_other_are_never_seated_together(
    make_player: Callable[..., Player], clock: FakeClock
) -> None:
    players = [make_player() for _ in range(8)]
    # The first two would sit together in asking order; the second blocks the first.
    Block.objects.create(blocker=players[1].user, blocked=players[0].user)
    for player in players:
        ask(player)
    matches = {ticket_of(p)["match_id"] for p in players}
    assert None not in matches and len(matches) == 2
    assert ticket_of(players[0])["match_id"] != ticket_of(players[1])["match_id"]
    seated = [table_of(m) for m in matches if m is not None]
    assert sorted(len(t) for t in seated) == [4, 4]
    assert set.union(*seated) == {p.id for p in players}


def test_a_block_leaves_four_players_waiting(
    make_player: Callable[..., Player], clock: FakeClock
) -> None:
    players = [make_player() for _ in range(4)]
    Block.objects.create(blocker=players[0].user, blocked=players[3].user)
    for player in players:
        ask(player)
    clock.advance(600)
    place_waiting_players()
    assert all(ticket_of(p)["status"] == "waiting" for p in players)
    assert not Match.objects.exists()


def test_bots_fill_the_table_after_the_wait(
    make_player: Callable[..., Player], clock: FakeClock
) -> None:
    alone = make_player()
    humans_only = make_player()
    assert ask(alone, bots_after_seconds=20).json()["status"] == "waiting"
    assert ask(humans_only).json()["status"] == "waiting"
    clock.advance(19)
    assert place_waiting_players() == 0
    assert ticket_of(alone)["status"] == "waiting"
    clock.advance(1)
    assert place_waiting_players() == 1
    ticket = ticket_of(alone)
    assert ticket["status"] == "placed"
    seats = seats_of(ticket["match_id"])
    # The one who asked for no bots is not seated with them: still waiting.
    assert [s.user_id for s in seats if s.user_id] == [alone.id]
    assert [s.bot for s in seats if s.bot] == ["normal"] * 3
    assert Match.objects.get(pk=ticket["match_id"]).status == MatchStatus.ACTIVE
    assert ticket_of(humans_only)["status"] == "waiting"


def test_bots_join_whoever_is_compatible_then(
    make_player: Callable[..., Player], clock: FakeClock
) -> None:
    first, second, blocker = make_player(), make_player(), make_player()
    Block.objects.create(blocker=blocker.user, blocked=first.user)
    ask(first, bots_after_seconds=10)
    ask(second, bots_after_seconds=300)
    ask(blocker, bots_after_seconds=300)
    clock.advance(10)
    place_waiting_players()
    match_id = ticket_of(first)["match_id"]
    assert match_id is not None
    seats = seats_of(match_id)
    assert table_of(match_id) == {first.id, second.id}
    assert sorted(s.bot for s in seats if s.bot) == ["normal", "normal"]
    assert ticket_of(blocker)["status"] == "waiting"


def test_bots_at_once_with_zero_seconds(make_player: Callable[..., Player]) -> None:
    player = make_player()
    body = ask(player, bots_after_seconds=0).json()
    assert body["status"] == "placed"
    assert view_of(player, body["match_id"])["status"] == "active"


def test_a_placed_player_may_ask_again_and_plays_both_matches(
    make_player: Callable[..., Player],
) -> None:
    player = make_player()
    first = ask(player, bots_after_seconds=0).json()["match_id"]
    second = ask(player, bots_after_seconds=0).json()["match_id"]
    assert first != second
    inbox = player.client.get(f"{API}/me/matches").json()["results"]
    assert {m["id"] for m in inbox} == {first, second}


def test_a_sanctioned_waiting_player_is_dropped_not_seated(
    make_player: Callable[..., Player], clock: FakeClock
) -> None:
    moderator = make_player().user
    players = [make_player() for _ in range(5)]
    for player in players[:4]:
        ask(player)
        if player is players[0]:
            moderation.sanction_apply(
                moderator=moderator,
                user_id=player.id,
                kind=SanctionKind.BAN,
                reason="abuse",
                ends_at=None,
            )
    # The fourth ask found the banned player's ticket and cancelled it; the table waits.
    assert Ticket.objects.get(user=players[0].user).status == TicketStatus.CANCELLED
    assert not Match.objects.exists()
    ask(players[4])
    match_id = ticket_of(players[4])["match_id"]
    assert table_of(match_id) == {p.id for p in players[1:]}


# --- Cancelling -----------------------------------------------------------------------------


def test_cancel_then_ask_again(make_player: Callable[..., Player], clock: FakeClock) -> None:
    players = [make_player() for _ in range(4)]
    for player in players[:3]:
        ask(player)
    clock.advance(7)
    assert players[0].client.delete(URL).status_code == 204
    cancelled = ticket_of(players[0])
    assert cancelled["status"] == "cancelled" and cancelled["waited_seconds"] == 7
    assert cancelled["cancelled_at"] is not None
    assert players[0].client.delete(URL).status_code == 204  # a retry is answered the same
    assert ask(players[3]).json()["status"] == "waiting"  # only three are waiting
    again = ask(players[0])
    assert again.status_code == 201 and again.json()["status"] == "placed"


def test_cancel_refusals_change_nothing(make_player: Callable[..., Player]) -> None:
    never = make_player()
    assert_problem(never.client.delete(URL), 404, "no_ticket")
    assert_problem(never.client.get(URL), 404, "no_ticket")
    seated = make_player()
    match_id = ask(seated, bots_after_seconds=0).json()["match_id"]
    before = tickets_state()
    assert_problem(seated.client.delete(URL), 409, "ticket_placed")
    body = seated.client.delete(URL, {"ruleset": "gamerules"}, format="json")
    assert_field_errors(body, {"ruleset": "unknown_field"})
    assert tickets_state() == before
    assert ticket_of(seated)["match_id"] == match_id


# --- Refusals -------------------------------------------------------------------------------


def test_one_waiting_ticket_per_player(make_player: Callable[..., Player]) -> None:
    player = make_player()
    ask(player)
    before = tickets_state()
    assert_problem(ask(player), 409, "already_queued")
    assert_problem(ask(player, turn_seconds=60), 409, "already_queued")
    assert tickets_state() == before


@pytest.mark.parametrize(
    ("body", "errors"),
    [
        ({"ruleset": "nope"}, {"ruleset": "invalid_choice"}),
        ({"turn_seconds": 45}, {"turn_seconds": "invalid_choice"}),
        ({"turn_seconds": "30"}, {"turn_seconds": "invalid_choice"}),
        ({"turn_seconds": True}, {"turn_seconds": "invalid_choice"}),
        ({"bots_after_seconds": -1}, {"bots_after_seconds": "min_value"}),
        ({"bots_after_seconds": 3601}, {"bots_after_seconds": "max_value"}),
        ({"visibility": "public"}, {"visibility": "unknown_field"}),
    ],
)
def test_invalid_bodies_are_refused_and_change_nothing(
    make_player: Callable[..., Player], body: dict[str, Any], errors: dict[str, str]
) -> None:
    player = make_player()
    assert_field_errors(ask(player, **body), errors)
    assert not Ticket.objects.exists()


def test_defaults(make_player: Callable[..., Player]) -> None:
    player = make_player()
    body = player.client.post(URL, {}, format="json").json()
    assert (body["ruleset"], body["turn_seconds"], body["bots_after_seconds"]) == (
        "gamerules",
        30,
        None,
    )


def test_anonymous_and_revoked_callers_are_refused(
    make_player: Callable[..., Player], anon: APIClient
) -> None:
    assert_problem(anon.post(URL, LIVE, format="json"), 401, "not_authenticated")
    assert_problem(anon.get(URL), 401, "not_authenticated")
    assert_problem(anon.delete(URL), 401, "not_authenticated")
    revoked = make_player()
    token_revoke(token=AuthToken.objects.get(user=revoked.user))
    assert_problem(ask(revoked), 401, "authentication_failed")
    assert_problem(revoked.client.get(URL), 401, "authentication_failed")
    assert_problem(revoked.client.delete(URL), 401, "authentication_failed")
    assert not Ticket.objects.exists()


@pytest.mark.parametrize(
    ("kind", "code"),
    [(SanctionKind.BAN, "account_banned"), (SanctionKind.SUSPEND, "account_suspended")],
)
def test_sanctioned_players_are_refused(
    make_player: Callable[..., Player], kind: str, code: str
) -> None:
    moderator = make_player().user
    player = make_player()
    ask(player)
    ends = timezone.now() + timedelta(days=3) if kind == SanctionKind.SUSPEND else None
    moderation.sanction_apply(
        moderator=moderator, user_id=player.id, kind=kind, reason="abuse", ends_at=ends
    )
    before = tickets_state()
    assert_problem(ask(player), 403, code)
    assert_problem(player.client.get(URL), 403, code)
    assert_problem(player.client.delete(URL), 403, code)
    assert tickets_state() == before


def test_beat_runs_the_placement_pass() -> None:
    from django.conf import settings

    from baloot_site.celery import app

    entry = settings.CELERY_BEAT_SCHEDULE["matchmaking-place"]
    app.loader.import_default_modules()
    assert app.tasks[entry["task"]].name == place_waiting_players.name
    assert 0 < entry["schedule"] <= 5
