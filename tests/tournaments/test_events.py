"""What a tournament tells its players: ``tournament`` messages on ``/ws/v1/me`` and push
notifications, for the round, the match and the end; ids and public facts only."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from live import asyncapi, relay
from live.push.models import Device, Notification
from live.push.payloads import payload_for
from tests.live.test_asyncapi import _validator
from tests.support.api import CARD_TOKEN
from tests.support.live import Stream, ThreadServer
from tests.support.players import Player, player_register
from tests.support.tournaments import TournamentDriver
from tournaments.models import Pairing


def _notes_by_kind(notes: list[relay.Note]) -> dict[str, set[tuple[int | None, Any]]]:
    out: dict[str, set[tuple[int | None, Any]]] = {}
    for note in notes:
        out.setdefault(note["kind"], set()).add((note["user_id"], note["tournament_id"]))
    return out


def test_each_player_hears_the_round_their_match_and_the_end(
    cup: TournamentDriver, staff: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    notes: list[relay.Note] = []
    monkeypatch.setattr(relay, "publish", notes.append)
    tournament = cup.create(staff, name="Ramadan cup")
    teams = [cup.team(tournament) for _ in range(2)]
    Device.objects.create(user=teams[0][0].user, platform="fcm", address="t" * 40)
    cup.start(tournament)
    everyone = {p.id for team in teams for p in team}
    heard = _notes_by_kind(notes)
    assert heard["tournament_round_started"] == {(u, tournament.pk) for u in everyone}
    assert heard["tournament_match_ready"] == {(u, tournament.pk) for u in everyone}
    row = Pairing.objects.get(tournament=tournament)
    ready = [n for n in notes if n["kind"] == "tournament_match_ready"]
    assert {n["match_id"] for n in ready} == {row.match_id} and {n["round"] for n in ready} == {1}
    notes.clear()
    from games.models import Seat

    assert row.match_id is not None
    loser = Seat.objects.get(match_id=row.match_id, index=1).user
    cup.resign(row.match_id, loser)
    assert _notes_by_kind(notes)["tournament_finished"] == {(u, tournament.pk) for u in everyone}
    # Push, for the one player with a device: the three kinds, each naming the tournament.
    rows = Notification.objects.filter(user=teams[0][0].user, kind__startswith="tournament_")
    payloads = {r.kind: payload_for(r, "en") for r in rows}
    assert set(payloads) == {
        "tournament_round_started",
        "tournament_match_ready",
        "tournament_finished",
    }
    assert payloads["tournament_match_ready"]["match_id"] == row.match_id
    assert payloads["tournament_round_started"]["round"] == 1
    assert all(p["tournament_id"] == tournament.pk for p in payloads.values())
    assert "Ramadan cup" in payloads["tournament_round_started"]["body"]
    assert all(not CARD_TOKEN.search(str(p)) for p in payloads.values())
    arabic = payload_for(rows.get(kind="tournament_finished"), "ar")
    assert arabic["title"] != payloads["tournament_finished"]["title"]


@pytest.mark.django_db(transaction=True)
def test_the_player_stream_carries_tournament_messages(
    stream_server: ThreadServer, task_recorder: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tournaments import tasks
    from tournaments.services.registration import entry_accept, entry_create, tournament_create
    from tournaments.services.rounds import tournament_start

    monkeypatch.setattr(tasks.advance_tournament, "delay", lambda tid: None)
    owner = player_register()
    tournament = tournament_create(
        creator=owner.user,
        name="Cup",
        format="knockout",
        public=False,
        capacity=4,
        starts_at=timezone.now() + timedelta(hours=1),
        round_seconds=3600,
    )
    players = [player_register() for _ in range(4)]
    for a, b in (players[0:2], players[2:4]):
        entry = entry_create(
            tournament_id=tournament.pk, user=a.user, partner=b.user, code=tournament.invite_code
        )
        entry_accept(tournament_id=tournament.pk, entry_id=entry.pk, user=b.user)
    stream = Stream(f"{stream_server.url}/ws/v1/me", players[3].token)
    type(tournament).objects.filter(pk=tournament.pk).update(
        starts_at=timezone.now() - timedelta(seconds=1)
    )
    assert tournament_start(tournament.pk)
    got: list[dict[str, Any]] = []
    while len(got) < 2:  # inbox messages (match_started, your_turn) come along too
        message = stream.next()
        if message["type"] == "tournament":
            got.append(message)
    document = asyncapi.document()
    for message in got:
        _validator(document, "TournamentMessage").validate(message)
    events = {m["event"]: m for m in got}
    assert events["tournament_round_started"]["round"] == 1
    match_id = Pairing.objects.get(tournament=tournament).match_id
    assert events["tournament_match_ready"]["match_id"] == match_id
