"""A slow push target stalls nothing (issue 23): push runs on a queue of its own; every send has
short connect and read timeouts; sends in flight are bounded per host and per user across
processes; a host that keeps failing is skipped for a cool-down, and the rows it holds back
wait without spending attempts, never lost."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from django.core.cache import caches

from baloot_site.celery import app
from live.push import delivery, limits
from live.push.models import Device, Notification, NotificationStatus
from live.push.providers import Result
from live.push.providers.apns import ApnsProvider
from live.push.providers.base import send_timeouts
from live.push.providers.fcm import FcmProvider
from live.push.tasks import PUSH_QUEUE, deliver_notification, purge_outbox, sweep_outbox
from tests.push.conftest import Deliveries, RecordingProvider
from tests.support.clock import FakeClock
from tests.support.players import Player
from tests.support.workers import ROOT, database_url

FCM_HOST = "fcm.example.test"


@pytest.fixture
def fresh_push_cache(transactional_db: None) -> Iterator[None]:
    """For a transactional test: the database cache's table is not one of the models it
    flushes (other tests roll their writes back; on Redis, the default cache, cleared before
    every test, is the same one)."""
    caches[limits.CACHE_ALIAS].clear()
    yield
    caches[limits.CACHE_ALIAS].clear()


@pytest.fixture
def wall(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The breakers' wall clock, moved by hand: ``wall[0] += seconds``."""
    now = [time.time()]
    monkeypatch.setattr(limits, "_now", lambda: now[0])
    return now


# --- The queue --------------------------------------------------------------------------------


@pytest.mark.parametrize("task", [deliver_notification, sweep_outbox, purge_outbox])
def test_push_tasks_are_routed_to_the_push_queue_and_the_turns_are_not(task: Any) -> None:
    from games import tasks

    def queue_of(name: str) -> str:
        route = app.amqp.router.route({}, name, args=(1,))
        return str(route["queue"].name)

    assert PUSH_QUEUE == "push"
    assert queue_of(task.name) == PUSH_QUEUE
    assert queue_of(tasks.play_bot_turn.name) == tasks.DEFAULT_QUEUE
    assert queue_of(tasks.expire_turn.name) == tasks.DEFAULT_QUEUE
    assert queue_of(tasks.sweep_deadlines.name) == tasks.DEFAULT_QUEUE


# --- Timeouts ---------------------------------------------------------------------------------


def test_apns_sends_with_the_short_connect_and_read_timeouts(settings: Any) -> None:
    settings.PUSH_CONNECT_TIMEOUT_SECONDS, settings.PUSH_TIMEOUT_SECONDS = 3.0, 5.0
    settings.APNS_VERIFY = True
    provider = ApnsProvider()
    try:
        timeout = provider._http().timeout
    finally:
        provider.close()
    assert (timeout.connect, timeout.read, timeout.write, timeout.pool) == (3.0, 5.0, 5.0, 5.0)


def test_fcm_sends_and_fetches_its_token_with_the_short_timeouts(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import google.auth.transport.requests

    from live.push.providers import fcm

    settings.PUSH_CONNECT_TIMEOUT_SECONDS, settings.PUSH_TIMEOUT_SECONDS = 2.0, 4.0
    seen: dict[str, Any] = {}

    def post(self: httpx.Client, url: str, **kwargs: Any) -> httpx.Response:
        seen["send"] = self.timeout
        return httpx.Response(200, json={"name": "m"})

    def request(self: Any, *args: Any, **kwargs: Any) -> None:
        seen["token"] = kwargs["timeout"]

    monkeypatch.setattr(httpx.Client, "post", post)
    monkeypatch.setattr(google.auth.transport.requests.Request, "__call__", request)
    monkeypatch.setattr(FcmProvider, "_token", lambda self, fresh=False: "t")
    device = Device(pk=1, platform="fcm", address="token")
    provider = FcmProvider()
    try:
        assert provider.send(device, {"title": "t", "body": "b"}, "k") is Result.OK
    finally:
        provider.close()
    assert (seen["send"].connect, seen["send"].read) == (2.0, 4.0)
    fcm._TimedRequest()(url="https://oauth.example.test/token", method="POST")
    assert seen["token"] == (2.0, 4.0)


def test_defaults_are_short() -> None:
    from django.conf import settings

    connect, read = send_timeouts()
    assert connect <= 5 and read <= 10
    # A delivery gives up starting sends well before the worker's soft time limit.
    assert settings.PUSH_DELIVERY_BUDGET_SECONDS + connect + read < (
        settings.CELERY_TASK_SOFT_TIME_LIMIT
    )


# --- Hosts ------------------------------------------------------------------------------------


def test_a_send_talks_to_the_configured_service_or_the_endpoints_host(settings: Any) -> None:
    settings.PUSH_BACKENDS = {"fcm": "fcm", "apns": "apns", "webpush": "webpush"}
    settings.FCM_BASE_URL = "https://FCM.example.test"
    settings.APNS_BASE_URL = "https://127.0.0.1:8443"
    assert limits.target_host(Device(platform="fcm", address="t")) == "fcm.example.test"
    assert limits.target_host(Device(platform="apns", address="t")) == "127.0.0.1:8443"
    webpush = Device(platform="webpush", address="https://push.example.test/sub/1")
    assert limits.target_host(webpush) == "push.example.test"
    settings.PUSH_BACKENDS = {"fcm": "log", "apns": "log", "webpush": "log"}
    assert limits.target_host(webpush) is None  # the log backend sends nothing anywhere


# --- The breaker ------------------------------------------------------------------------------


def _admit(host: str = FCM_HOST, user_id: int = 1) -> limits.Ticket | float:
    return limits.send_admit(user_id=user_id, host=host)


def test_the_breaker_opens_after_n_failures_in_a_row_and_probes_after_the_cool_down(
    settings: Any, wall: list[float], db: None
) -> None:
    settings.PUSH_BREAKER_FAILURES, settings.PUSH_BREAKER_COOLDOWN_SECONDS = 3, 60.0
    for _ in range(3):
        ticket = _admit()
        assert isinstance(ticket, limits.Ticket)
        limits.send_done(ticket, Result.RETRY)
    assert _admit() == pytest.approx(60.0, abs=1)  # open: wait out the cool-down
    other = _admit("other.example.test")  # per host
    assert isinstance(other, limits.Ticket)
    limits.send_done(other, Result.OK)
    wall[0] += 30
    assert _admit() == pytest.approx(30.0, abs=1)
    wall[0] += 31
    probe = _admit()
    assert isinstance(probe, limits.Ticket) and probe.probe
    assert isinstance(_admit(), float)  # one probe at a time; the others wait for it
    limits.send_done(probe, Result.RETRY)  # the host still does not answer: open again
    assert _admit() == pytest.approx(60.0, abs=1)
    wall[0] += 61
    probe = _admit()
    assert isinstance(probe, limits.Ticket) and probe.probe
    limits.send_done(probe, Result.OK)  # it answers: closed
    again = [_admit() for _ in range(2)]
    assert all(isinstance(t, limits.Ticket) and not t.probe for t in again)


def test_an_answer_resets_the_count_only_failures_in_a_row_open_it(
    settings: Any, wall: list[float], db: None
) -> None:
    settings.PUSH_BREAKER_FAILURES = 3
    for result in [Result.RETRY, Result.RETRY, Result.GONE, Result.RETRY, Result.RETRY]:
        ticket = _admit()
        assert isinstance(ticket, limits.Ticket)
        limits.send_done(ticket, result)
    assert isinstance(_admit(), limits.Ticket)


# --- The bounds -------------------------------------------------------------------------------


def test_sends_in_flight_are_bounded_per_host(settings: Any, db: None) -> None:
    settings.PUSH_HOST_CONCURRENCY, settings.PUSH_USER_CONCURRENCY = 2, 10
    settings.PUSH_SLOT_WAIT_SECONDS = 0.0
    first, second = _admit(user_id=1), _admit(user_id=2)
    assert isinstance(first, limits.Ticket) and isinstance(second, limits.Ticket)
    assert _admit(user_id=3) == settings.PUSH_BACKOFF_SECONDS  # the host's slots are taken
    assert isinstance(_admit("other.example.test", user_id=3), limits.Ticket)
    limits.send_done(first, Result.OK)
    assert isinstance(_admit(user_id=3), limits.Ticket)


def test_sends_in_flight_are_bounded_per_user(settings: Any, db: None) -> None:
    settings.PUSH_HOST_CONCURRENCY, settings.PUSH_USER_CONCURRENCY = 10, 1
    settings.PUSH_SLOT_WAIT_SECONDS = 0.0
    held = _admit("a.example.test", user_id=7)
    assert isinstance(held, limits.Ticket)
    assert isinstance(_admit("b.example.test", user_id=7), float)  # the same user, elsewhere
    refused_host_slots = limits._cache().get("slot:host:b.example.test:0")
    assert refused_host_slots is None  # a refused send holds nothing
    assert isinstance(_admit("b.example.test", user_id=8), limits.Ticket)
    limits.send_done(held, Result.OK)
    assert isinstance(_admit("b.example.test", user_id=7), limits.Ticket)


def test_a_send_waits_a_little_for_a_slot_before_it_is_deferred(settings: Any, db: None) -> None:
    settings.PUSH_HOST_CONCURRENCY, settings.PUSH_SLOT_WAIT_SECONDS = 1, 0.3
    held = _admit(user_id=1)
    assert isinstance(held, limits.Ticket)
    started = time.monotonic()
    assert isinstance(_admit(user_id=2), float)
    assert time.monotonic() - started >= 0.3


HOLD_SLOTS = """
import sys, django
django.setup()
from live.push import limits
held = [limits.send_admit(user_id=100 + n, host="shared.example.test") for n in range(2)]
assert all(isinstance(t, limits.Ticket) for t in held), held
print("held", flush=True)
sys.stdin.readline()
for ticket in held:
    limits.send_done(ticket, limits.Result.OK)
"""


def test_the_bounds_hold_across_processes(settings: Any, fresh_push_cache: None) -> None:
    """Another process (another push worker) holds the host's slots: this one is refused
    until it gives them back, whichever cache is configured (the database's or Redis)."""
    settings.PUSH_HOST_CONCURRENCY, settings.PUSH_SLOT_WAIT_SECONDS = 2, 0.0
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "PUSH_HOST_CONCURRENCY": "2",
        "PUSH_SLOT_WAIT_SECONDS": "0",
    }
    other = subprocess.Popen(
        [sys.executable, "-c", HOLD_SLOTS],
        cwd=ROOT,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert other.stdout is not None and other.stdout.readline().strip() == "held", (
            other.stderr.read() if other.stderr else ""
        )
        assert isinstance(_admit("shared.example.test"), float)
        other.communicate("go\n", timeout=60)
        assert other.returncode == 0
        assert isinstance(_admit("shared.example.test"), limits.Ticket)
    finally:
        if other.poll() is None:
            other.kill()


# --- Delivery: deferred, never lost, no attempt spent -----------------------------------------


@pytest.fixture
def fcm_row(
    settings: Any, make_player: Callable[..., Player], db: None
) -> Callable[[int], tuple[Notification, list[int]]]:
    """A pending sanction notice for a user with ``n`` FCM devices; FCM (as far as the
    limits know, settings.PUSH_BACKENDS) is ``FCM_HOST``, the sends go to the recording
    provider."""
    settings.PUSH_BACKENDS = {"fcm": "fcm", "apns": "log", "webpush": "log"}
    settings.FCM_BASE_URL = f"https://{FCM_HOST}"

    def make(n: int) -> tuple[Notification, list[int]]:
        player = make_player()
        devices = Device.objects.bulk_create(
            Device(user=player.user, platform="fcm", address=f"{player.user.pk}-{i}")
            for i in range(n)
        )
        row = Notification.objects.create(
            key=f"sanction:0:1:{player.user.pk}",
            user=player.user,
            kind="sanction",
            version=1,
            due_at=delivery.clock.now(),
        )
        return row, [d.pk for d in devices]

    return make


def test_a_host_that_keeps_failing_is_cut_off_mid_row_and_the_rest_is_deferred(
    settings: Any,
    fcm_row: Callable[[int], tuple[Notification, list[int]]],
    provider: RecordingProvider,
    deliveries: Deliveries,
    clock: FakeClock,
    wall: list[float],
) -> None:
    settings.PUSH_BREAKER_FAILURES, settings.PUSH_BREAKER_COOLDOWN_SECONDS = 3, 120.0
    row, devices = fcm_row(20)
    provider.default = Result.RETRY  # as a tarpit answers, after its timeout
    deliveries.queued.append((row.pk, None))
    assert deliveries.run() == [NotificationStatus.PENDING]
    assert len(provider.sent) == 3  # then the breaker opened: 17 devices not tried
    row.refresh_from_db()
    assert row.attempts == 1  # something was sent: one attempt
    assert row.last_error == "3 device(s) to retry, 17 device(s) deferred"
    wait = deliveries.countdown()
    assert wait == pytest.approx(120.0, abs=1)  # the cool-down, longer than the backoff
    assert row.due_at == clock.at + timedelta(seconds=wait)
    # While the breaker is open a run sends nothing and spends no attempt.
    clock.advance(wait)
    assert deliveries.run() == [NotificationStatus.PENDING]
    row.refresh_from_db()
    assert len(provider.sent) == 3 and row.attempts == 1
    assert row.last_error == "20 device(s) deferred"
    # The host answers again: after the cool-down a probe goes out, then everything.
    provider.default = Result.OK
    wall[0] += 121
    clock.advance(deliveries.countdown())
    assert deliveries.run() == [NotificationStatus.SENT]
    row.refresh_from_db()
    assert sorted(row.delivered_to) == sorted(devices)
    assert row.attempts == 2 and len(provider.sent) == 23


def test_a_row_whose_sends_find_no_slot_is_deferred_without_spending_an_attempt(
    settings: Any,
    fcm_row: Callable[[int], tuple[Notification, list[int]]],
    provider: RecordingProvider,
    deliveries: Deliveries,
) -> None:
    settings.PUSH_HOST_CONCURRENCY, settings.PUSH_SLOT_WAIT_SECONDS = 1, 0.0
    row, _devices = fcm_row(2)
    busy = limits.send_admit(user_id=0, host=FCM_HOST)  # another process's send in flight
    assert isinstance(busy, limits.Ticket)
    deliveries.queued.append((row.pk, None))
    assert deliveries.run() == [NotificationStatus.PENDING]
    row.refresh_from_db()
    assert provider.sent == [] and row.attempts == 0
    assert deliveries.countdown() == settings.PUSH_BACKOFF_SECONDS
    limits.send_done(busy, Result.OK)


def test_a_delivery_stops_starting_sends_when_its_time_is_spent(
    settings: Any,
    fcm_row: Callable[[int], tuple[Notification, list[int]]],
    provider: RecordingProvider,
    deliveries: Deliveries,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings.PUSH_DELIVERY_BUDGET_SECONDS = 10.0
    row, devices = fcm_row(5)
    ticks = iter([0.0, 0.0, 4.0, 8.0, 11.0])  # seconds into the delivery, at each device
    monkeypatch.setattr(delivery, "time", SimpleNamespace(monotonic=lambda: next(ticks)))
    deliveries.queued.append((row.pk, None))
    assert deliveries.run() == [NotificationStatus.PENDING]
    row.refresh_from_db()
    assert row.delivered_to == devices[:3]  # three went out, two wait for the next run
    assert row.last_error == "2 device(s) deferred"
    assert deliveries.countdown() == 1.0  # it carries on soon


def test_with_the_push_cache_down_sends_go_out_bounded_by_the_timeouts_only(
    fcm_row: Callable[[int], tuple[Notification, list[int]]],
    provider: RecordingProvider,
    deliveries: Deliveries,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def down(**_kwargs: Any) -> limits.Ticket:
        raise ConnectionError("the push cache is down")

    monkeypatch.setattr(limits, "send_admit", down)
    row, devices = fcm_row(2)
    deliveries.queued.append((row.pk, None))
    assert deliveries.run() == [NotificationStatus.SENT]
    assert [s.device_id for s in provider.sent] == devices
