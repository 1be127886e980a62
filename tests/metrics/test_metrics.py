"""``GET /metrics`` (baloot_site/metrics.py): not public (no token configured, no endpoint:
404; a scrape without the configured bearer token, or with another, 401), and with the token
it carries every family core.metrics names once a request, a stream and tasks ran; and
``LOG_FORMAT=json`` writes one JSON object a line."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from baloot_site.task_metrics import SENT_AT
from core import clock, metrics
from games.models import Match
from games.tasks import sweep_deadlines
from tests.support.api import legal_step
from tests.support.live import Stream, ThreadServer
from tests.support.players import create_match, player_register

TOKEN = "a-long-metrics-token"
ROOT = Path(__file__).resolve().parents[2]


def _scrape(token: str | None = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
    return Client().get("/metrics", headers=headers)


def _samples(text: str, family: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith(family)]


@pytest.mark.django_db
def test_no_token_configured_no_endpoint(settings: Any) -> None:
    settings.METRICS_TOKEN = ""
    assert _scrape().status_code == 404
    assert _scrape("").status_code == 404
    assert _scrape("anything").status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize(
    "authorization",
    [None, "", "Bearer", f"Bearer {TOKEN}x", f"Bearer {TOKEN[:-1]}", f"Token {TOKEN}", TOKEN],
)
def test_a_scrape_without_the_token_is_refused(settings: Any, authorization: str | None) -> None:
    settings.METRICS_TOKEN = TOKEN
    headers = {"Authorization": authorization} if authorization is not None else {}
    answer = Client().get("/metrics", headers=headers)
    assert answer.status_code == 401
    assert answer["WWW-Authenticate"].startswith("Bearer")
    assert b"baloot_" not in answer.content


@pytest.mark.django_db
def test_a_players_api_token_is_not_the_metrics_token(settings: Any) -> None:
    settings.METRICS_TOKEN = TOKEN
    player = player_register()
    assert _scrape(player.token).status_code == 401
    assert player.client.get("/metrics").status_code == 401


def test_with_the_token_every_family_after_a_request_a_stream_and_tasks(
    settings: Any, stream_server: ThreadServer, table: Any
) -> None:
    settings.METRICS_TOKEN = TOKEN
    # A request, a stream open while a move commits, then tasks: the deadline sweep taking up
    # a bot's due turn (the bot thinks), published a moment ago.
    view, players = table(visibility="public")
    stream = Stream(f"{stream_server.url}/ws/v1/matches/{view['id']}", players[0].token)
    stream.until_view(view["version"])
    moved = legal_step(players, view["id"], random.Random(1), declines_doubling=True)
    stream.until_view(moved["version"])
    bots = create_match(player_register(), bots={"1": "easy", "2": "easy", "3": "easy"})
    for _ in range(8):
        Match.objects.filter(pk=bots["id"]).update(deadline=clock.now() - timedelta(seconds=2))
        sweep_deadlines.apply(headers={SENT_AT: str(time.time() - 0.5)})
        if metrics.BOT_THINK.labels("easy")._sum.get():
            break
    answer = _scrape(TOKEN)
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/plain")
    text = answer.content.decode()
    for family in metrics.FAMILIES:
        assert f"# TYPE {family} " in text, family
    request = _samples(text, "baloot_http_request_duration_seconds_count{")
    assert any('route="matches-detail"' in s and 'status="200"' in s for s in request), request
    assert any('route="matches-moves"' in s or "moves" in s for s in request), request
    assert not any(f"/matches/{view['id']}" in s for s in request)  # names, not raw paths
    assert _samples(text, 'baloot_streams_open{stream="match"} 1')
    assert _samples(text, 'baloot_stream_frames_sent_total{stream="match"}')
    assert _samples(text, 'baloot_stream_lag_seconds_count{stream="match"}')
    depths = _samples(text, "baloot_queue_depth{")
    assert sorted(s.split('"')[1] for s in depths) == ["bots-hard", "celery", "push"]
    assert _samples(text, 'baloot_task_queue_wait_seconds_count{queue="celery"')
    assert _samples(text, 'baloot_task_run_seconds_count{queue="celery"')
    assert _samples(text, 'baloot_bot_think_seconds_count{level="easy"}')
    assert _samples(text, "baloot_sweep_lag_seconds_count")
    stream.close()


def test_push_sends_are_counted_by_outcome() -> None:
    before = metrics.PUSH_SENDS.labels("gone")._value.get()
    metrics.push_sent({"ok": 2, "gone": 1, "retry": 0, "failed": 0, "deferred": 3})
    assert metrics.PUSH_SENDS.labels("gone")._value.get() == before + 1


@pytest.mark.slow
def test_log_format_json_writes_one_json_object_a_line(tmp_path: Path) -> None:
    script = (
        "import django, logging; django.setup(); log = logging.getLogger('baloot.probe')\n"
        "log.warning('a move in match %s', 7)\n"
        "try:\n    raise ValueError('boom')\nexcept ValueError:\n    log.exception('failed')\n"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "baloot_site.settings",
        "LOG_FORMAT": "json",
        "BALOOT_VAR_DIR": str(tmp_path),
    }
    command = [sys.executable, "-c", script]
    ran = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    records = [json.loads(line) for line in ran.stderr.splitlines() if line.strip()]
    probe = [r for r in records if r.get("logger") == "baloot.probe"]
    assert probe[0]["message"] == "a move in match 7" and probe[0]["level"] == "WARNING"
    assert probe[0]["time"].endswith("+00:00")
    assert probe[1]["message"] == "failed" and "ValueError: boom" in probe[1]["exc_info"]
    # Text by default.
    del env["LOG_FORMAT"]
    ran = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert "WARNING baloot.probe a move in match 7" in ran.stderr
