"""``/healthz`` tells the truth about the worker (issue "Hardening", 1): while no deadline sweep
completes, bot turns and deadlines have stopped, and health says so with a 503 problem."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import services
from games.models import Heartbeat
from games.tasks import SWEEP_HEARTBEAT, sweep_deadlines

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
