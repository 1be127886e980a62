"""The embedded default: every platform's backend is ``log``, which writes the payload to
the log, so ``make run`` delivers with no credentials at all."""

from __future__ import annotations

import logging
from collections.abc import Callable

import pytest
from django.conf import settings

from live.push.models import Notification
from live.push.tasks import sweep_outbox
from tests.push.conftest import Deliveries
from tests.support.players import Player, create_match


def test_the_log_backend_is_the_default_and_logs_the_payload(
    make_player: Callable[..., Player], deliveries: Deliveries, caplog: pytest.LogCaptureFixture
) -> None:
    assert settings.PUSH_BACKENDS == {"fcm": "log", "apns": "log", "webpush": "log"}
    amal = make_player()
    body = {"platform": "apns", "token": "cd" * 32}
    assert amal.client.post("/api/v1/me/devices", body, format="json").status_code == 201
    amal.client.patch("/api/v1/me/notifications", {"your_turn": False}, format="json")
    match_id = create_match(amal, bots={"1": "easy", "2": "easy", "3": "easy"})["id"]
    sweep_outbox()
    with caplog.at_level(logging.INFO, logger="live.push.sent"):
        assert deliveries.run() == ["sent"]
    (line,) = [r.getMessage() for r in caplog.records if r.name == "live.push.sent"]
    assert f"collapse match-{match_id}" in line and '"event":"match_started"' in line
    assert Notification.objects.get(kind="match_started").status == "sent"
