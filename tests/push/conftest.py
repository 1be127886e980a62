"""Push tests' fixtures: a recording provider in place of the real ones, and the outbox's
deliveries queued in a list (run by hand) instead of sent to a broker."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from live.push import delivery, outbox
from live.push.models import Device
from live.push.providers import Result, providers_reset


@dataclass
class Sent:
    device_id: int
    platform: str
    payload: dict[str, Any]
    collapse_key: str


@dataclass
class RecordingProvider:
    """Answers ``results`` in turn (then ``default``) and records every send."""

    sent: list[Sent] = field(default_factory=list)
    results: list[Result] = field(default_factory=list)
    default: Result = Result.OK

    def send(self, target: Device, payload: dict[str, Any], collapse_key: str) -> Result:
        self.sent.append(Sent(target.pk, target.platform, payload, collapse_key))
        return self.results.pop(0) if self.results else self.default


@pytest.fixture
def provider(monkeypatch: pytest.MonkeyPatch) -> RecordingProvider:
    recording = RecordingProvider()
    monkeypatch.setattr(delivery, "provider_for", lambda platform: recording)
    return recording


@dataclass
class Deliveries:
    """The delivery tasks the outbox queued: (notification id, countdown)."""

    capture: Any = None  # pytest-django's django_capture_on_commit_callbacks
    queued: list[tuple[int, float | None]] = field(default_factory=list)

    def take(self) -> list[int]:
        ids = [pk for pk, _ in self.queued]
        self.queued.clear()
        return ids

    def countdown(self) -> float:
        """The wait of the one retry queued."""
        ((_pk, countdown),) = self.queued
        assert countdown is not None
        return countdown

    def run(self) -> list[str]:
        """Run every queued delivery in-process, as the worker would: its transactions
        commit, so what they queue on commit is queued."""
        out = []
        for pk in self.take():
            with self.capture(execute=True):
                out.append(delivery.notification_deliver(notification_id=pk))
        return out


@pytest.fixture
def deliveries(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> Deliveries:
    recorded = Deliveries(capture=django_capture_on_commit_callbacks)

    def enqueue(notification_id: int, *, countdown: float | None = None) -> None:
        recorded.queued.append((notification_id, countdown))

    monkeypatch.setattr(outbox, "enqueue", enqueue)
    return recorded


@pytest.fixture(autouse=True)
def _fresh_providers() -> Iterator[None]:
    providers_reset()
    yield
    providers_reset()
