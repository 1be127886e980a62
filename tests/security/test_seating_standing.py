"""Standing on every path to a seat (issue 23, part 5): a banned, suspended or deleted account is
never seated, whether it joins, accepts an invitation, is placed by quick play or is part of a
rematch; a rematch that lost a human is called off at once and the table's others are told.

The findings replayed: a player banned after proposing a rematch was seated in it when the
others accepted; a proposal waited ten minutes for a seat whose account had been deleted. The
races are replayed by barring the player at the moment the service takes the match lock (the
request's token was checked a moment before, as it is when the ban commits meanwhile).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from accounts.authentication import _CHECKED
from accounts.models import Sanction, SanctionKind
from core import events
from core.errors import DomainError
from games import services as games
from games.models import Match, MatchStatus, Seat
from games.services import matches as match_services
from moderation import services as moderation
from players.events import RematchCancelled
from players.models import Rematch, Ticket, TicketStatus
from players.services import matchmaking
from tests.support.api import API, assert_problem, match_url
from tests.support.players import PASSWORD, Player, create_match, player_register
from tests.support.social import erase, finish_by_resigning

pytestmark = pytest.mark.django_db

Table = Callable[..., tuple[dict[str, Any], list[Player]]]
# How each way of losing an account's standing is answered when it meets a seat.
BARRED = {
    "banned": (403, "account_banned"),
    "suspended": (403, "account_suspended"),
    "deleted": (401, "authentication_failed"),
}


def bar(player: Player, how: str) -> None:
    """Take ``player``'s standing away as the rows show it (no listener runs: the checks on the
    seat paths must hold by themselves)."""
    if how == "deleted":
        erase(player)
        return
    staff = player_register()
    Sanction.objects.create(
        user=player.user,
        kind=SanctionKind.BAN if how == "banned" else SanctionKind.SUSPEND,
        ends_at=None if how == "banned" else timezone.now() + timedelta(days=1),
        reason="test",
        created_by=staff.user,
    )


def sanction(player: Player, kind: str) -> None:
    """Through moderation, as staff do it."""
    moderation.sanction_apply(
        moderator=player_register().user,
        user_id=player.id,
        kind=kind,
        reason="abuse",
        ends_at=timezone.now() + timedelta(days=1) if kind == SanctionKind.SUSPEND else None,
    )


def delete_account(player: Player) -> None:
    response = player.client.delete(f"{API}/me", {"password": PASSWORD}, format="json")
    assert response.status_code == 204, response.content


def rematch(player: Player, match_id: int) -> Any:
    return player.client.post(match_url(match_id, "/rematch"), format="json")


def finished(table: Table) -> tuple[int, list[Player]]:
    view, players = table()
    finish_by_resigning(players[1], view["id"])
    return view["id"], players


def seated_in_active(player: Player) -> bool:
    return Seat.objects.filter(user=player.user, match__status=MatchStatus.ACTIVE).exists()


@pytest.fixture
def cancellations() -> Iterator[list[RematchCancelled]]:
    """The ``RematchCancelled`` events emitted (the live stream turns each into an inbox note
    per user: tests/live/test_rematch_stream.py)."""
    seen: list[RematchCancelled] = []
    events.subscribe(RematchCancelled, seen.append)
    yield seen
    events.unsubscribe(RematchCancelled, seen.append)


@pytest.fixture
def barred_at_lock(monkeypatch: pytest.MonkeyPatch) -> Callable[[Player, str], None]:
    """``barred_at_lock(player, how)``: the next join's match lock bars ``player`` first, as
    a ban or deletion committing while the join waited for the lock would."""

    def arm(player: Player, how: str) -> None:
        original = match_services.match_lock

        def locking(match_id: int) -> Match:
            monkeypatch.setattr(match_services, "match_lock", original)
            bar(player, how)
            return original(match_id)

        monkeypatch.setattr(match_services, "match_lock", locking)

    return arm


# --- Rematch ---------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", [SanctionKind.BAN, SanctionKind.SUSPEND])
def test_a_proposer_sanctioned_afterwards_is_not_seated_and_the_others_are_told(
    table: Table, cancellations: list[RematchCancelled], kind: str
) -> None:
    old_id, players = finished(table)
    assert rematch(players[0], old_id).status_code == 201
    assert rematch(players[1], old_id).status_code == 200

    sanction(players[0], kind)

    # Called off at once: the three others hear of it, the sanctioned player is not told.
    version = Match.objects.get(pk=old_id).version
    others = tuple(sorted(p.id for p in players[1:]))
    assert cancellations == [RematchCancelled(match_id=old_id, version=version, user_ids=others)]
    got = players[2].client.get(match_url(old_id, "/rematch")).json()
    assert got["status"] == "cancelled" and got["new_match_id"] is None
    for player in players[1:]:
        assert_problem(rematch(player, old_id), 409, "rematch_cancelled")
    assert Match.objects.count() == 1
    assert not seated_in_active(players[0])


def test_a_ban_written_outside_moderation_still_keeps_the_proposer_out(
    table: Table, cancellations: list[RematchCancelled]
) -> None:
    old_id, players = finished(table)
    assert rematch(players[0], old_id).status_code == 201
    bar(players[0], "banned")
    # The next accept finds the table lost a player: the proposal is called off, for good.
    assert_problem(rematch(players[1], old_id), 409, "rematch_cancelled")
    assert [set(e.user_ids) for e in cancellations] == [{p.id for p in players[1:]}]
    for player in players[2:]:
        assert_problem(rematch(player, old_id), 409, "rematch_cancelled")
    assert Rematch.objects.get(match_id=old_id).new_match_id is None
    assert Match.objects.count() == 1


def test_a_ban_at_the_last_accept_starts_nothing(
    table: Table, cancellations: list[RematchCancelled]
) -> None:
    """Everyone but one accepted; the proposer is banned as the last one accepts."""
    old_id, players = finished(table)
    for player in players[:3]:
        assert rematch(player, old_id).status_code in (200, 201)
    bar(players[0], "banned")
    assert_problem(rematch(players[3], old_id), 409, "rematch_cancelled")
    assert Match.objects.count() == 1 and len(cancellations) == 1
    assert not seated_in_active(players[0])


def test_a_deleted_account_s_pending_rematch_is_cancelled_at_once(
    table: Table, cancellations: list[RematchCancelled]
) -> None:
    old_id, players = finished(table)
    assert rematch(players[1], old_id).status_code == 201

    delete_account(players[0])

    others = tuple(sorted(p.id for p in players[1:]))
    assert [e.user_ids for e in cancellations] == [others]
    got = players[1].client.get(match_url(old_id, "/rematch")).json()
    assert got["status"] == "cancelled"
    for player in players[1:]:
        assert_problem(rematch(player, old_id), 409, "rematch_cancelled")
    assert Match.objects.count() == 1


@pytest.mark.parametrize("how", ["deleted", "banned", "suspended"])
def test_no_rematch_is_proposed_for_a_table_that_lost_a_player(
    table: Table, cancellations: list[RematchCancelled], how: str
) -> None:
    old_id, players = finished(table)
    if how == "deleted":
        delete_account(players[3])
    else:
        bar(players[3], how)
    assert_problem(rematch(players[0], old_id), 409, "rematch_unavailable")
    assert not Rematch.objects.exists() and cancellations == []


# --- Join and invitations --------------------------------------------------------------------


@pytest.mark.parametrize("how", list(BARRED))
def test_a_player_barred_while_joining_is_not_seated(
    make_player: Callable[..., Player], barred_at_lock: Any, how: str
) -> None:
    host, late = make_player(), make_player()
    created = create_match(host, visibility="public", bots={"1": "easy", "2": "easy"})
    barred_at_lock(late, how)
    refused = late.client.post(match_url(created["id"], "/join"), {}, format="json")
    assert_problem(refused, *BARRED[how])
    assert not Seat.objects.filter(user=late.user).exists()
    assert Match.objects.get(pk=created["id"]).status == MatchStatus.WAITING


@pytest.mark.parametrize("how", list(BARRED))
def test_a_player_barred_while_accepting_an_invitation_is_not_seated(
    make_player: Callable[..., Player], barred_at_lock: Any, how: str
) -> None:
    host, layla = make_player(), make_player()
    created = create_match(host, bots={"1": "easy", "2": "easy"})
    url = match_url(created["id"], "/invitations")
    sent = host.client.post(url, {"username": layla.user.username}, format="json").json()
    barred_at_lock(layla, how)
    refused = layla.client.post(f"{API}/invitations/{sent['id']}/accept", format="json")
    assert_problem(refused, *BARRED[how])
    assert not Seat.objects.filter(user=layla.user).exists()
    assert Match.objects.get(pk=created["id"]).status == MatchStatus.WAITING


@pytest.mark.parametrize("how", list(BARRED))
def test_the_join_service_refuses_a_barred_user_whatever_the_request_checked(
    make_player: Callable[..., Player], how: str
) -> None:
    host, late = make_player(), make_player()
    created = create_match(host, visibility="public")
    bar(late, how)
    # The mark a request's token check leaves on its user: the check came before the bar.
    late.user.__dict__[_CHECKED] = True
    with pytest.raises(DomainError) as refused:
        games.match_join(match_id=created["id"], user=late.user)
    assert (refused.value.status, refused.value.code) == BARRED[how]
    assert not Seat.objects.filter(user=late.user).exists()


# --- Quick play ------------------------------------------------------------------------------


@pytest.mark.parametrize("how", list(BARRED))
def test_quick_play_never_places_a_player_barred_during_the_pass(
    make_player: Callable[..., Player], monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    players = [make_player() for _ in range(4)]
    body = {"ruleset": "gamerules", "turn_seconds": 30, "bots_after_seconds": None}
    for player in players[:3]:
        assert player.client.post(f"{API}/matchmaking", body, format="json").status_code == 201
    # The pass of the fourth request has read the tickets when the first player is barred.
    original = matchmaking.blocked_pairs

    def barring(user_ids: Any) -> Any:
        bar(players[0], how)
        return original(user_ids)

    monkeypatch.setattr(matchmaking, "blocked_pairs", barring)
    fourth = players[3].client.post(f"{API}/matchmaking", body, format="json")
    assert fourth.status_code == 201 and fourth.json()["status"] == "waiting"
    assert not Match.objects.exists()
    monkeypatch.setattr(matchmaking, "blocked_pairs", original)
    # The next pass drops the barred player's ticket; the three others wait on.
    matchmaking.matchmaking_place(ruleset="gamerules", turn_seconds=30)
    assert Ticket.objects.get(user=players[0].user).status == TicketStatus.CANCELLED
    assert not Match.objects.exists()
