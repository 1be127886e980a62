"""Quick play under a crowd: 200 players asking at once are each seated exactly once.

Real threads, each with its own database connection, all released at one barrier, against
the configured database (SQLite by default, PostgreSQL with ``DATABASE_URL``). Every
``POST /matchmaking`` makes its ticket and runs a placement pass at once, so passes race each
other: on PostgreSQL they lock disjoint sets of tickets (``FOR UPDATE SKIP LOCKED``), on
SQLite they take the write lock one after the other (``BEGIN IMMEDIATE``). Players a racing
pass could not seat (its share of the queue was not a multiple of four) are seated by beat's
pass afterwards. Then: 200 tickets, 50 full tables with no bot, no ticket in two matches, no
player in two seats, every ticket's match holding its player.

The 200 threads start together, and at most 40 (PostgreSQL) or 20 (SQLite) of their
requests are inside the server at one moment; the others queue for a slot. PostgreSQL here
allows 100 connections in all, shared with other test runs. SQLite has one writer: more
requests than that would only queue on its file lock, whose waits are bounded by the busy
timeout (20 s) and are not first-come first-served, so on a loaded machine the last of 200
could time out (a 503) while the lock is passed around, which proves nothing about placement.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from django.db import connection

from games.models import Match, MatchStatus, Round, Seat
from players.models import Ticket, TicketStatus
from players.services.matchmaking import ticket_create
from players.tasks import place_waiting_players
from tests.support.api import API, PROBLEM
from tests.support.drills import race
from tests.support.players import Player

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

PLAYERS = 200
URL = f"{API}/matchmaking"
BODY = {"ruleset": "gamerules", "turn_seconds": 30, "bots_after_seconds": None}


def _in_flight() -> int:
    return 40 if connection.vendor == "postgresql" else 20


def _gated(gate: threading.Semaphore, call: Callable[[], Any]) -> Callable[[], Any]:
    def run() -> Any:
        with gate:
            try:
                return call()
            finally:
                connection.close()  # before the next thread may open one

    return run


def _ask(player: Player) -> tuple[int, dict[str, Any]]:
    response = player.client.post(URL, BODY, format="json")
    return response.status_code, response.json()


def _cancel(player: Player) -> tuple[int, dict[str, Any] | None]:
    response = player.client.delete(URL)
    if response.status_code == 204:
        return 204, None
    assert response["Content-Type"].startswith(PROBLEM)
    return response.status_code, response.json()


def _settle() -> int:
    """Beat's passes until nobody who can be seated waits (one is enough; a few at most)."""
    passes = 0
    while Ticket.objects.filter(status=TicketStatus.WAITING).count() >= 4 and passes < 10:
        place_waiting_players()
        passes += 1
    return passes


def _assert_seated_once() -> None:
    placed = list(Ticket.objects.filter(status=TicketStatus.PLACED).values("user_id", "match_id"))
    # No player in two seats anywhere, no ticket in two matches (a ticket has one match; a
    # player's ticket placed twice would show as two tickets or two seats).
    seats = list(Seat.objects.filter(user__isnull=False).values_list("match_id", "user_id"))
    assert len(seats) == len({user for _, user in seats}), "a player sits twice"
    assert {(t["match_id"], t["user_id"]) for t in placed} == set(seats)
    by_match = Counter(t["match_id"] for t in placed)
    assert set(by_match.values()) == {4}, by_match
    matches = Match.objects.filter(pk__in=by_match)
    assert all(m.status == MatchStatus.ACTIVE for m in matches)
    assert not Seat.objects.exclude(bot="").exists()
    # Each table started once: one deal of round 1.
    assert Round.objects.filter(match__in=matches, number=1).count() == len(by_match)


def test_200_players_asking_at_once_are_each_seated_exactly_once(
    make_player: Callable[..., Player],
) -> None:
    players = [make_player() for _ in range(PLAYERS)]
    gate = threading.Semaphore(_in_flight())
    answers = race([_gated(gate, partial(_ask, p)) for p in players])
    errors = [a for a in answers if isinstance(a, BaseException)]
    assert not errors, errors[:3]
    assert {status for status, _ in answers} == {201}, Counter(s for s, _ in answers)
    placed_at_once = sum(body["status"] == "placed" for _, body in answers)
    passes = _settle()
    print(f"placed by their own request: {placed_at_once}/{PLAYERS}; beat passes: {passes}")
    assert Ticket.objects.count() == PLAYERS
    assert Ticket.objects.filter(status=TicketStatus.PLACED).count() == PLAYERS
    assert Counter(Ticket.objects.values_list("user_id", flat=True)) == Counter(
        {p.id: 1 for p in players}
    )
    assert Match.objects.count() == PLAYERS // 4
    _assert_seated_once()
    # Each player's own answer agrees with the store: a ticket answered placed is in that match.
    for player, (_, body) in zip(players, answers, strict=True):
        if body["status"] == "placed":
            assert Seat.objects.filter(match_id=body["match_id"], user=player.user).exists()


def test_cancels_racing_placement_are_either_cancelled_or_seated_never_both(
    make_player: Callable[..., Player],
) -> None:
    waiting = [make_player() for _ in range(60)]
    for player in waiting:  # already in the queue, not yet seated
        ticket_create(
            user=player.user, ruleset="gamerules", turn_seconds=30, bots_after_seconds=None
        )
    askers = [make_player() for _ in range(60)]
    cancellers = waiting[::2]
    gate = threading.Semaphore(_in_flight())
    calls = [_gated(gate, partial(_ask, p)) for p in askers]
    calls += [_gated(gate, partial(_cancel, p)) for p in cancellers]
    calls += [_gated(gate, place_waiting_players) for _ in range(4)]
    answers = race(calls)
    errors = [a for a in answers if isinstance(a, BaseException)]
    assert not errors, errors[:3]
    _settle()
    for player, (status, body) in zip(cancellers, answers[60:90], strict=True):
        ticket = Ticket.objects.get(user=player.user)
        if status == 204:
            assert ticket.status == TicketStatus.CANCELLED and ticket.match_id is None
            assert not Seat.objects.filter(user=player.user).exists()
        else:
            # Seated first: the cancel came too late and said so.
            assert (status, body and body["code"]) == (409, "ticket_placed")
            assert ticket.status == TicketStatus.PLACED
    assert Ticket.objects.filter(status=TicketStatus.WAITING).count() < 4
    _assert_seated_once()
