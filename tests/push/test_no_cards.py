"""No push payload carries a card: every payload of a whole match, a human against three
bots, played in-process (tasks run by hand on the set clock), in both languages."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from contextlib import AbstractContextManager

import pytest

from games import tasks
from games.models import Match
from tests.push.conftest import Deliveries, RecordingProvider
from tests.support.api import post_move, view_of
from tests.support.clock import FakeClock
from tests.support.players import Player, create_match
from tests.support.tasks import BOT, DEADLINE, Queued

Commit = Callable[[], AbstractContextManager[list[Queued]]]
CARD = re.compile(r"(?<![0-9A-Za-z])(?:[789]|10|[JQKA])[SHDC](?![0-9A-Za-z])")
KEYS = {"event", "match_id", "version", "title", "body", "deadline", "result", "scores"}


@pytest.mark.slow
def test_every_payload_of_a_whole_match_is_free_of_cards(
    make_player: Callable[..., Player],
    commit: Commit,
    clock: FakeClock,
    deliveries: Deliveries,
    provider: RecordingProvider,
) -> None:
    human = make_player()
    for token, language in (("token-en-device", "en"), ("token-ar-device", "ar")):
        body = {"platform": "fcm", "token": token}
        response = human.client.post(
            "/api/v1/me/devices", body, format="json", HTTP_ACCEPT_LANGUAGE=language
        )
        assert response.status_code == 201
    bots = {"1": "easy", "2": "easy", "3": "easy"}
    with commit() as queued:
        match_id = create_match(human, bots=bots, turn_seconds=60, target=152)["id"]
    rng = random.Random(3)
    for _ in range(3000):
        deliveries.run()
        if Match.objects.get(pk=match_id).status != "active":
            break
        (task,) = [t for t in queued if t.task in (BOT, DEADLINE)]
        if task.task == BOT:
            with commit() as queued:
                tasks.play_bot_turn(*task.args)
        else:
            view = view_of(human, match_id)
            move = rng.choice(view["round"]["legal_moves"])
            with commit() as queued:
                response = post_move(human, match_id, {**move, "expected_version": view["version"]})
                assert response.status_code == 201, response.content
    deliveries.run()
    assert Match.objects.get(pk=match_id).status == "finished"

    payloads = [s.payload for s in provider.sent]
    events = [p["event"] for p in payloads]
    assert events.count("match_started") == 2 and events.count("match_finished") == 2
    assert events.count("your_turn") > 10
    for payload in payloads:
        assert set(payload) <= KEYS, payload
        text = json.dumps(payload, ensure_ascii=False)
        assert not CARD.search(text), text
        for word in ("hand", "deck", "card", "salt"):
            assert word not in text.lower(), text
    # The same collapse key for every notification of the match.
    assert {s.collapse_key for s in provider.sent} == {f"match-{match_id}"}
