"""Push sends are counted by outcome for GET /metrics (``baloot_push_sends_total``): a send
the backend took is ``ok``, once per device."""

from __future__ import annotations

from collections.abc import Callable

from core import metrics
from live.push.tasks import sweep_outbox
from tests.push.conftest import Deliveries
from tests.support.players import Player, create_match


def _sent(outcome: str) -> float:
    return float(metrics.PUSH_SENDS.labels(outcome)._value.get())


def test_a_delivery_counts_its_sends_by_outcome(
    make_player: Callable[..., Player], deliveries: Deliveries
) -> None:
    amal = make_player()
    for token in ("cd" * 32, "ef" * 32):
        body = {"platform": "apns", "token": token}
        assert amal.client.post("/api/v1/me/devices", body, format="json").status_code == 201
    amal.client.patch("/api/v1/me/notifications", {"your_turn": False}, format="json")
    before = {outcome: _sent(outcome) for outcome in metrics.PUSH_OUTCOMES}
    create_match(amal, bots={"1": "easy", "2": "easy", "3": "easy"})
    sweep_outbox()
    assert deliveries.run() == ["sent"]
    after = {outcome: _sent(outcome) - before[outcome] for outcome in metrics.PUSH_OUTCOMES}
    assert after == {"ok": 2.0, "gone": 0.0, "retry": 0.0, "failed": 0.0, "deferred": 0.0}
