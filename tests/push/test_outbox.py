"""The outbox: a notification row commits if and only if the change that causes it does, once
per (user, event, match version), respecting mutes; delivery after the commit, retried with
backoff, gone targets deleted, and a crash between sending and recording costs at most one
duplicate, under the same collapse key."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.db import transaction

from accounts.models import SanctionKind
from core import events
from games.events import SeatHandedToBot, TurnBegan
from games.models import Match
from live.push import delivery
from live.push.models import Device, Notification, NotificationStatus
from live.push.providers import Result
from live.push.tasks import sweep_outbox
from moderation import services as moderation
from tests.push.conftest import Deliveries, RecordingProvider
from tests.support.api import fix_deal, post_move, view_of
from tests.support.clock import FakeClock
from tests.support.players import Player, create_match

API = "/api/v1"
THREE_BOTS = {"1": "easy", "2": "easy", "3": "easy"}


def add_device(player: Player, token: str | None = None, **headers: Any) -> int:
    body = {"platform": "fcm", "token": token or f"token-of-{player.user.username}"}
    response = player.client.post(f"{API}/me/devices", body, format="json", **headers)
    assert response.status_code in (200, 201), response.content
    return int(response.json()["id"])


def rows(**filters: Any) -> list[Notification]:
    return list(Notification.objects.filter(**filters).order_by("pk"))


def version(match_id: int) -> int:
    return Match.objects.get(pk=match_id).version


def first_legal(player: Player, match_id: int) -> dict[str, Any]:
    return dict(view_of(player, match_id)["round"]["legal_moves"][0])


def test_a_turn_row_commits_with_the_move_and_is_queued_only_after_the_commit(
    monkeypatch: pytest.MonkeyPatch,
    table: Callable[..., Any],
    deliveries: Deliveries,
    provider: RecordingProvider,
    django_capture_on_commit_callbacks: Any,
) -> None:
    fix_deal(monkeypatch, dealer=0)  # seat 1 bids first, then seat 2
    view, players = table(turn_seconds=60)
    match_id = view["id"]
    add_device(players[2])
    with django_capture_on_commit_callbacks() as callbacks:
        assert post_move(players[1], match_id, first_legal(players[1], match_id)).status_code == 201
        (row,) = rows()
        assert deliveries.queued == []  # nothing leaves before the commit
    assert (row.user_id, row.kind, row.match_id, row.version) == (
        players[2].id,
        "your_turn",
        match_id,
        version(match_id),
    )
    for callback in callbacks:
        callback()
    assert deliveries.run() == ["sent"]
    (sent,) = provider.sent
    assert sent.collapse_key == f"match-{match_id}"
    assert sent.payload == {
        "event": "your_turn",
        "match_id": match_id,
        "version": row.version,
        "deadline": view_of(players[2], match_id)["round"]["deadline"].replace("Z", "+00:00"),
        "title": "Your turn",
        "body": f"It is your turn in match {match_id}.",
    }
    row.refresh_from_db()
    assert (row.status, row.attempts, row.delivered_to) == ("sent", 1, [sent.device_id])


def test_a_refused_move_and_a_rolled_back_transaction_write_nothing(
    monkeypatch: pytest.MonkeyPatch, table: Callable[..., Any], deliveries: Deliveries
) -> None:
    fix_deal(monkeypatch, dealer=0)
    view, players = table(turn_seconds=60)
    match_id = view["id"]
    for player in players:
        add_device(player)
    legal = first_legal(players[1], match_id)
    assert post_move(players[2], match_id, legal).status_code == 422  # out of turn
    assert rows() == []

    before = version(match_id)
    with pytest.raises(RuntimeError), transaction.atomic():
        assert post_move(players[1], match_id, legal).status_code == 201
        assert len(rows()) == 1  # written inside, with the move ...
        raise RuntimeError("the transaction fails after the move")
    assert rows() == [] and version(match_id) == before  # ... and gone with it
    assert deliveries.queued == []


def test_one_row_per_user_event_and_version_however_often_the_event_comes(
    make_player: Callable[..., Player], deliveries: Deliveries, clock: FakeClock
) -> None:
    amal = make_player()
    add_device(amal)
    match_id = create_match(amal, bots=THREE_BOTS, turn_seconds=60)["id"]
    Notification.objects.all().delete()
    event = TurnBegan(
        match_id=match_id, version=99, seat=0, user_id=amal.id, deadline=clock.at, turn_seconds=60
    )
    for _ in range(3):
        with transaction.atomic():
            events.emit(event)
    assert [(r.kind, r.version) for r in rows()] == [("your_turn", 99)]
    with transaction.atomic():
        events.emit(
            TurnBegan(
                match_id=match_id,
                version=100,
                seat=0,
                user_id=amal.id,
                deadline=clock.at,
                turn_seconds=60,
            )
        )
    assert [r.version for r in rows()] == [99, 100]


def test_muted_kinds_are_not_written_and_a_user_without_devices_gets_no_rows(
    make_player: Callable[..., Player], deliveries: Deliveries
) -> None:
    amal, basma = make_player(), make_player()
    add_device(amal)
    response = amal.client.patch(f"{API}/me/notifications", {"match_started": False}, format="json")
    assert response.status_code == 200
    create_match(amal, bots=THREE_BOTS, turn_seconds=60)
    create_match(basma, bots=THREE_BOTS, turn_seconds=60)
    assert {r.kind for r in rows()} <= {"your_turn"}
    assert rows(user_id=basma.id) == []
    amal.client.patch(f"{API}/me/notifications", {"match_started": True}, format="json")
    create_match(amal, bots=THREE_BOTS, turn_seconds=60)
    assert "match_started" in {r.kind for r in rows()}


def test_a_crash_between_sending_and_recording_sends_once_more_with_the_same_collapse_key(
    monkeypatch: pytest.MonkeyPatch,
    make_player: Callable[..., Player],
    deliveries: Deliveries,
    provider: RecordingProvider,
    clock: FakeClock,
    settings: Any,
) -> None:
    amal = make_player()
    add_device(amal)
    amal.client.patch(f"{API}/me/notifications", {"your_turn": False}, format="json")
    match_id = create_match(amal, bots=THREE_BOTS, turn_seconds=60)["id"]
    (row,) = rows(kind="match_started")
    record = delivery.notification_record

    def crash(**kwargs: Any) -> str:
        raise SystemExit("worker killed after the send")

    monkeypatch.setattr(delivery, "notification_record", crash)
    assert sweep_outbox() == 1
    with pytest.raises(SystemExit):
        deliveries.run()
    monkeypatch.setattr(delivery, "notification_record", record)
    assert len(provider.sent) == 1
    row.refresh_from_db()
    assert (row.status, row.attempts) == ("pending", 1)

    # Under its lease nobody sends it again, the sweep included.
    assert sweep_outbox() == 0
    assert delivery.notification_deliver(notification_id=row.pk) == "not_due"
    clock.advance(settings.PUSH_LEASE_SECONDS + 1)
    assert sweep_outbox() == 1
    assert deliveries.run() == ["sent"]
    assert [s.collapse_key for s in provider.sent] == [f"match-{match_id}"] * 2
    assert provider.sent[0].payload == provider.sent[1].payload
    clock.advance(3600)
    assert sweep_outbox() == 0 and deliveries.run() == []
    assert len(provider.sent) == 2


def test_gone_targets_are_deleted_and_passing_failures_retried_with_backoff(
    make_player: Callable[..., Player],
    deliveries: Deliveries,
    provider: RecordingProvider,
    clock: FakeClock,
    settings: Any,
) -> None:
    amal = make_player()
    gone, flaky, fine = (add_device(amal, f"device-token-{n}") for n in range(3))
    amal.client.patch(f"{API}/me/notifications", {"your_turn": False}, format="json")
    create_match(amal, bots=THREE_BOTS, turn_seconds=60)
    (row,) = rows()
    provider.results = [Result.GONE, Result.RETRY, Result.OK]
    provider.default = Result.RETRY
    assert deliveries.run() == []  # queued on commit only; the test transaction never commits
    assert sweep_outbox() == 1
    assert deliveries.run() == ["pending"]
    assert set(Device.objects.values_list("pk", flat=True)) == {flaky, fine}
    row.refresh_from_db()
    assert row.delivered_to == [fine]
    waits = []
    for attempt in range(1, settings.PUSH_MAX_ATTEMPTS):
        wait = deliveries.countdown()
        waits.append(wait)
        assert row.due_at == clock.at + timedelta(seconds=wait)
        clock.advance(wait)
        statuses = deliveries.run()
        row.refresh_from_db()
        assert row.attempts == attempt + 1
    assert statuses == ["failed"] and row.status == NotificationStatus.FAILED
    base = settings.PUSH_BACKOFF_SECONDS
    assert waits == [base * 2**n for n in range(settings.PUSH_MAX_ATTEMPTS - 1)]
    # Only the device still owed was tried again: one send each to gone and fine.
    sent_to = [s.device_id for s in provider.sent]
    assert sent_to.count(gone) == 1 and sent_to.count(fine) == 1
    assert sent_to.count(flaky) == settings.PUSH_MAX_ATTEMPTS


def test_a_long_turn_gets_a_reminder_when_80_percent_of_its_clock_is_gone(
    monkeypatch: pytest.MonkeyPatch,
    make_player: Callable[..., Player],
    deliveries: Deliveries,
    provider: RecordingProvider,
    clock: FakeClock,
) -> None:
    fix_deal(monkeypatch, dealer=3)  # the human acts first
    amal = make_player()
    add_device(amal, HTTP_ACCEPT_LANGUAGE="ar")
    match_id = create_match(amal, bots=THREE_BOTS, turn_seconds=7200)["id"]
    (reminder,) = rows(kind="turn_nearly_spent")
    assert reminder.due_at == clock.after(7200 * 0.8)
    clock.advance(7200 * 0.8 - 1)
    assert sweep_outbox() == 2  # the start and the turn itself, not the reminder yet
    deliveries.run()
    clock.advance(1)
    assert sweep_outbox() == 1
    assert deliveries.run() == ["sent"]
    payload = provider.sent[-1].payload
    assert payload["event"] == "turn_nearly_spent" and payload["match_id"] == match_id
    assert payload["title"] == "وقت دورك يوشك على الانتهاء"
    assert payload["deadline"] == reminder.data["deadline"]


def test_a_reminder_for_a_turn_played_meanwhile_is_skipped(
    monkeypatch: pytest.MonkeyPatch,
    make_player: Callable[..., Player],
    deliveries: Deliveries,
    provider: RecordingProvider,
    clock: FakeClock,
) -> None:
    fix_deal(monkeypatch, dealer=3)
    amal = make_player()
    add_device(amal)
    match_id = create_match(amal, bots=THREE_BOTS, turn_seconds=3600)["id"]
    assert post_move(amal, match_id, first_legal(amal, match_id)).status_code == 201
    (reminder, *_) = rows(kind="turn_nearly_spent")
    clock.advance(3600)
    Notification.objects.exclude(pk=reminder.pk).delete()
    assert sweep_outbox() == 1
    assert deliveries.run() == ["skipped"]
    assert provider.sent == []


@pytest.mark.slow
def test_the_players_own_move_that_gives_them_the_turn_again_is_not_pushed(
    monkeypatch: pytest.MonkeyPatch, table: Callable[..., Any], deliveries: Deliveries
) -> None:
    import random

    from tests.support.api import legal_step, to_act

    view, players = table(turn_seconds=60)
    match_id = view["id"]
    for player in players:
        add_device(player)
    rng = random.Random(7)
    again = other = 0
    for _ in range(120):
        mover = to_act(match_id)
        legal_step(players, match_id, rng)
        match = Match.objects.get(pk=match_id)
        if match.status != "active" or match.to_act is None:
            break
        pushed = rows(kind="your_turn", version=match.version)
        if match.to_act == mover:
            again += 1
            assert pushed == []
        else:
            other += 1
            assert [r.user_id for r in pushed] == [players[match.to_act].id]
    assert again and other


def test_start_end_seat_to_bot_and_sanction_rows_carry_public_facts_only(
    make_player: Callable[..., Player], deliveries: Deliveries, provider: RecordingProvider
) -> None:
    amal, moderator = make_player(), make_player()
    add_device(amal)
    amal.client.patch(f"{API}/me/notifications", {"your_turn": False}, format="json")
    match_id = create_match(amal, bots=THREE_BOTS, turn_seconds=60)["id"]
    assert amal.client.post(f"{API}/matches/{match_id}/resign").status_code == 200
    with transaction.atomic():
        events.emit(
            SeatHandedToBot(
                match_id=match_id, version=7, seat=0, user_id=amal.id, reason="timeouts"
            )
        )
    sanction = moderation.sanction_apply(
        moderator=moderator.user, user_id=amal.id, kind=SanctionKind.WARN, reason="language"
    )
    got = {(r.kind, r.match_id, r.version) for r in rows()}
    assert {kind for kind, _, _ in got} == {
        "match_started",
        "match_finished",
        "seat_to_bot",
        "sanction",
    }
    assert ("match_finished", match_id, version(match_id)) in got
    assert ("seat_to_bot", match_id, 7) in got
    assert ("sanction", None, sanction.pk) in got
    assert sweep_outbox() == 4
    deliveries.run()
    by_event = {s.payload["event"]: s for s in provider.sent}
    finished = by_event["match_finished"].payload
    match = Match.objects.get(pk=match_id)
    assert finished["result"] == "lost"
    assert finished["scores"] == {"mine": match.scores[0], "theirs": match.scores[1]}
    assert finished["title"] == "You lost"
    assert by_event["sanction"].payload["match_id"] is None
    assert "language" not in str(by_event["sanction"].payload)  # the reason stays with staff
    assert by_event["sanction"].collapse_key == f"sanction-{amal.id}"
    assert by_event["seat_to_bot"].collapse_key == f"match-{match_id}"


def test_settled_rows_are_purged_after_the_keep_days_and_pending_ones_never(
    monkeypatch: pytest.MonkeyPatch,
    make_player: Callable[..., Player],
    deliveries: Deliveries,
    provider: RecordingProvider,
    clock: FakeClock,
    settings: Any,
) -> None:
    from live.push.tasks import purge_outbox

    fix_deal(monkeypatch, dealer=3)  # the human acts first
    amal = make_player()
    add_device(amal)
    create_match(amal, bots=THREE_BOTS, turn_seconds=7200)  # the start, the turn, a reminder
    sweep_outbox()
    deliveries.run()
    pending = rows(status="pending")
    assert pending and rows(status="sent")
    clock.advance(settings.PUSH_KEEP_DAYS * 86400 - 60)
    assert purge_outbox() == 0
    clock.advance(3600)
    Notification.objects.filter(status="pending").update(due_at=clock.at + timedelta(days=30))
    settled = len(rows()) - len(pending)
    assert purge_outbox() == settled == 2
    assert rows() == pending
