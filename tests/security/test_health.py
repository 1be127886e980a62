"""``/healthz`` tells the truth about the worker (issue "Hardening", 1): while no deadline sweep
completes, bot turns and deadlines have stopped, and health says so with a 503 problem. It
shows the push backlog as a figure, never as a failure (issue 23: a slow push target must not
make the service look down)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import User
from games import services
from games.models import Heartbeat
from games.tasks import SWEEP_HEARTBEAT, sweep_deadlines
from live.push.models import Notification, NotificationStatus

PROBLEM = "application/problem+json"
pytestmark = pytest.mark.django_db


def test_no_sweep_yet_is_unhealthy_and_names_the_sweep(anon: Any) -> None:
    response = anon.get("/healthz")
    assert response.status_code == 503
    assert response["Content-Type"] == PROBLEM
    body = response.json()
    assert body["code"] == "service_unavailable" and body["status"] == 503
    assert body["failing"] == ["sweep"]
    assert "sweep" in body["detail"]
    assert body["checks"]["database"] == "ok" and body["checks"]["broker"] == "ok"


def test_a_sweep_just_completed_is_healthy(anon: Any) -> None:
    sweep_deadlines()  # what beat and the worker do every second
    response = anon.get("/healthz")
    assert response.status_code == 200, response.content
    assert response.json() == {
        "status": "ok",
        "checks": {"database": "ok", "broker": "ok", "sweep": "ok"},
        "push_backlog": {"due": 0, "oldest_due_seconds": None},
    }


def test_a_stale_sweep_is_unhealthy(anon: Any, settings: Any) -> None:
    services.heartbeat_record(name=SWEEP_HEARTBEAT)
    age = settings.BALOOT["HEALTH_SWEEP_MAX_AGE"] + 5
    Heartbeat.objects.filter(name=SWEEP_HEARTBEAT).update(
        at=timezone.now() - timedelta(seconds=age)
    )
    response = anon.get("/healthz")
    assert response.status_code == 503
    assert response.json()["failing"] == ["sweep"]
    assert f"{age:.0f} s" in response.json()["detail"]


def test_every_sweep_records_its_completion() -> None:
    sweep_deadlines()
    first = Heartbeat.objects.get(name=SWEEP_HEARTBEAT).at
    sweep_deadlines()
    assert Heartbeat.objects.get(name=SWEEP_HEARTBEAT).at > first
    assert Heartbeat.objects.count() == 1


def _notification(user: User, n: int, *, due_seconds_ago: float, **fields: Any) -> None:
    Notification.objects.create(
        key=f"health:{n}",
        user=user,
        kind="sanction",
        due_at=timezone.now() - timedelta(seconds=due_seconds_ago),
        **fields,
    )


def test_a_push_backlog_is_shown_and_the_answer_stays_200(anon: Any) -> None:
    sweep_deadlines()
    user = User.objects.create_user(username="backlogged", password="x" * 12)
    for n in range(250):  # due and waiting, the oldest for 40 minutes
        _notification(user, n, due_seconds_ago=2400 - n)
    _notification(user, 1000, due_seconds_ago=-600)  # a reminder due later: not backlog
    _notification(user, 1001, due_seconds_ago=9000, status=NotificationStatus.SENT)
    response = anon.get("/healthz")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["status"] == "ok"
    assert body["checks"] == {"database": "ok", "broker": "ok", "sweep": "ok"}
    assert body["push_backlog"]["due"] == 250
    assert 2400 <= body["push_backlog"]["oldest_due_seconds"] < 2500


def test_an_unhealthy_answer_shows_the_push_backlog_too(anon: Any) -> None:
    user = User.objects.create_user(username="backlogged", password="x" * 12)
    _notification(user, 1, due_seconds_ago=30)
    response = anon.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["failing"] == ["sweep"]  # the backlog is never a failing part
    assert body["push_backlog"]["due"] == 1
