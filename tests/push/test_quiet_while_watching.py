"""Push that stays quiet while the player watches (issue 27, point 6): no `your_turn` push for
a match while one of the player's connections holds that match's stream, across processes
(the marks live in the shared push cache, live/watching.py); pushed again once it closes; and
kinds muted per device in `GET`/`PATCH /me/devices/{id}`."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from live import watching
from live.push.models import Device, Notification
from tests.push.conftest import Deliveries, RecordingProvider
from tests.push.test_outbox import add_device, rows
from tests.support.api import assert_problem, fix_deal, post_move
from tests.support.live import Stream, ThreadServer
from tests.support.players import Player, player_register

API = "/api/v1"
PASS = {"type": "bid", "call": "pass"}


def _until(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the stream's mark did not change in time"
        time.sleep(0.02)


def _pass(player: Player, match_id: int) -> None:
    assert post_move(player, match_id, PASS).status_code == 201


@pytest.mark.django_db(transaction=True)
def test_no_your_turn_push_while_the_player_holds_the_match_stream_and_again_once_closed(
    stream_server: ThreadServer,
    monkeypatch: pytest.MonkeyPatch,
    table: Callable[..., Any],
    deliveries: Deliveries,
    provider: RecordingProvider,
) -> None:
    fix_deal(monkeypatch, dealer=0)  # seat 1 bids first, then seats 2, 3, 0, and 1 again
    view, players = table(turn_seconds=60, visibility="public")
    match_id = view["id"]
    add_device(players[2])
    # Not watching: an inbox stream (/ws/v1/me), a stream of another match, an outsider's
    # stream of this one.
    inbox = Stream(f"{stream_server.url}/ws/v1/me", players[2].token)
    other, _ = table(turn_seconds=60, visibility="public")
    elsewhere = Stream(f"{stream_server.url}/ws/v1/matches/{other['id']}", players[2].token)
    elsewhere.next()
    url = f"{stream_server.url}/ws/v1/matches/{match_id}"
    watcher = Stream(url, player_register().token)
    watcher.next()
    assert not watching.is_watching(players[2].id, match_id)

    stream = Stream(url, players[2].token)
    stream.until_view(view["version"])
    _until(lambda: watching.is_watching(players[2].id, match_id))
    _pass(players[1], match_id)  # seat 2's turn, while seat 2 watches
    assert deliveries.run() == ["skipped"]
    assert provider.sent == []
    (row,) = rows(user_id=players[2].id)
    assert (row.kind, row.last_error) == ("your_turn", "watching the match")

    stream.close()
    _until(lambda: not watching.is_watching(players[2].id, match_id))
    for seat in (2, 3, 0, 1):  # round two of the bidding comes back to seat 2
        _pass(players[seat], match_id)
    assert deliveries.run() == ["sent"]
    (sent,) = provider.sent
    assert sent.payload["event"] == "your_turn" and sent.payload["match_id"] == match_id
    for opened in (inbox, elsewhere, watcher):
        opened.close()


@pytest.mark.django_db
def test_a_mark_lapses_by_itself_when_its_process_stops_renewing_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(watching, "WATCH_SECONDS", 1)
    watching.watching_mark([(7, 70)])
    assert watching.is_watching(7, 70) and not watching.is_watching(7, 71)
    _until(lambda: not watching.is_watching(7, 70), timeout=5)


@pytest.mark.django_db
def test_kinds_muted_on_one_device_are_not_sent_to_it_and_the_others_still_are(
    monkeypatch: pytest.MonkeyPatch,
    table: Callable[..., Any],
    deliveries: Deliveries,
    provider: RecordingProvider,
    django_capture_on_commit_callbacks: Any,
) -> None:
    fix_deal(monkeypatch, dealer=0)
    view, players = table(turn_seconds=60)
    match_id = view["id"]
    phone = add_device(players[2], "phone-token")
    tablet = add_device(players[2], "tablet-token")
    url = f"{API}/me/devices/{tablet}"
    body = players[2].client.get(url).json()
    assert body["id"] == tablet and all(body["notifications"].values())
    answer = players[2].client.patch(url, {"notifications": {"your_turn": False}}, format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["notifications"]["your_turn"] is False
    assert answer.json()["notifications"]["match_finished"] is True
    assert players[2].client.get(url).json() == answer.json()
    listed = players[2].client.get(f"{API}/me/devices").json()["results"]
    assert [d["notifications"]["your_turn"] for d in listed] == [True, False]

    with django_capture_on_commit_callbacks(execute=True):
        _pass(players[1], match_id)
    assert deliveries.run() == ["sent"]
    assert [s.device_id for s in provider.sent] == [phone]

    # Muted on every device: nothing is sent and the row is settled, not retried.
    players[2].client.patch(
        f"{API}/me/devices/{phone}", {"notifications": {"your_turn": False}}, format="json"
    )
    provider.sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        for seat in (2, 3, 0, 1):
            _pass(players[seat], match_id)
    assert deliveries.run() == ["skipped"]
    assert provider.sent == []
    # Unmuted again.
    answer = players[2].client.patch(url, {"notifications": {"your_turn": True}}, format="json")
    assert answer.json()["notifications"]["your_turn"] is True


@pytest.mark.django_db
def test_device_mutes_refuse_bad_input_and_other_peoples_devices_and_change_nothing(
    make_player: Callable[..., Player], anon: Any
) -> None:
    owner, stranger = make_player(), make_player()
    device = add_device(owner)
    url = f"{API}/me/devices/{device}"
    before = list(Device.objects.values_list("pk", "muted"))
    bad: list[dict[str, Any]] = [
        {"notifications": {"your_turn": "no"}},
        {"notifications": {"not_a_kind": False}},
        {"notifications": []},
        {"notifications": {"your_turn": False}, "extra": 1},
    ]
    for body in bad:
        assert_problem(owner.client.patch(url, body, format="json"), 400, "invalid")
    # An empty PATCH is well formed and changes nothing: the device as it is.
    unchanged = owner.client.patch(url, {}, format="json")
    assert unchanged.status_code == 200 and unchanged.json()["id"] == device
    assert_problem(stranger.client.get(url), 404, "not_found")
    mute = {"notifications": {"your_turn": False}}
    assert_problem(stranger.client.patch(url, mute, format="json"), 404, "not_found")
    assert_problem(owner.client.get(f"{API}/me/devices/999999"), 404, "not_found")
    assert_problem(anon.get(url), 401, "not_authenticated")
    assert_problem(anon.patch(url, mute, format="json"), 401, "not_authenticated")
    assert owner.client.post(f"{API}/auth/logout").status_code == 204
    assert_problem(owner.client.patch(url, mute, format="json"), 401, "authentication_failed")
    assert list(Device.objects.values_list("pk", "muted")) == before
    assert Notification.objects.count() == 0


@pytest.mark.django_db
def test_a_device_registered_by_another_account_loses_the_previous_owners_mutes(
    make_player: Callable[..., Player],
) -> None:
    first, second = make_player(), make_player()
    device = add_device(first, "shared-token")
    first.client.patch(
        f"{API}/me/devices/{device}", {"notifications": {"your_turn": False}}, format="json"
    )
    assert add_device(second, "shared-token") == device
    assert Device.objects.get(pk=device).muted == []
