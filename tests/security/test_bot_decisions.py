"""Bots think outside every transaction, apply only on the state they thought about, and draw
their randomness from a keyed source no client can recompute (issue "Hardening", 3 and 5)."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from games import services
from games.engine import bots
from games.models import Match, Move
from games.services import turns
from tests.support.players import create_match

pytestmark = pytest.mark.django_db(transaction=True)


def _bot_to_act(make_player: Callable[..., Any], level: str = "easy") -> Match:
    """An active match whose seat to act is a bot (every seat is one)."""
    created = create_match(make_player(), bots={"1": level, "2": level, "3": level})
    with transaction.atomic():
        services.seat_replace_with_bot(
            match=services.match_lock(created["id"]), seat_index=0, level=level
        )
    return Match.objects.get(pk=created["id"])


def _spy_on_thinking(monkeypatch: pytest.MonkeyPatch, during: Callable[[], None] = lambda: None):
    """Record, for every bot decision, whether a transaction was open while it was made."""
    seen: list[bool] = []
    real = bots.choose_move

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(connection.in_atomic_block)
        during()
        return real(*args, **kwargs)

    monkeypatch.setattr(bots, "choose_move", spy)
    return seen


def test_a_bot_decides_with_no_transaction_open(make_player: Any, monkeypatch: Any) -> None:
    match = _bot_to_act(make_player, "normal")
    seen = _spy_on_thinking(monkeypatch)
    assert services.bot_turn_play(match_id=match.pk, expected_version=match.version)
    assert seen == [False]
    assert Move.objects.filter(match=match, actor="bot").count() == 1


def test_a_timeout_decides_with_no_transaction_open(table: Any, monkeypatch: Any) -> None:
    view, _players = table(turn_seconds=60)
    Match.objects.filter(pk=view["id"]).update(deadline=timezone.now() - timedelta(seconds=1))
    seen = _spy_on_thinking(monkeypatch)
    assert services.turn_expire(match_id=view["id"], expected_version=view["version"])
    assert seen == [False]
    assert Move.objects.get(match_id=view["id"]).actor == "timeout"


def test_a_decision_is_dropped_if_the_match_moved_on_while_the_bot_thought(
    make_player: Any, monkeypatch: Any
) -> None:
    match = _bot_to_act(make_player)

    def someone_else_writes() -> None:  # e.g. a staff action committed meanwhile
        Match.objects.filter(pk=match.pk).update(version=F("version") + 1)

    _spy_on_thinking(monkeypatch, during=someone_else_writes)
    assert not services.bot_turn_play(match_id=match.pk, expected_version=match.version)
    assert not Move.objects.filter(match=match).exists()
    assert Match.objects.get(pk=match.pk).version == match.version + 1


def test_a_timeout_is_dropped_if_the_player_moved_while_it_was_decided(
    table: Any, monkeypatch: Any
) -> None:
    view, players = table(turn_seconds=60)
    Match.objects.filter(pk=view["id"]).update(deadline=timezone.now() - timedelta(seconds=1))
    to_act = view["round"]["to_act"]
    human_move = players[0].client.get(f"/api/v1/matches/{view['id']}")  # warm the client

    def the_player_moves() -> None:
        seat_view = players[to_act].client.get(f"/api/v1/matches/{view['id']}").json()
        response = players[to_act].client.post(
            f"/api/v1/matches/{view['id']}/moves",
            seat_view["round"]["legal_moves"][0],
            format="json",
        )
        assert response.status_code == 201, response.content

    assert human_move.status_code == 200
    _spy_on_thinking(monkeypatch, during=the_player_moves)
    assert not services.turn_expire(match_id=view["id"], expected_version=view["version"])
    assert [m.actor for m in Move.objects.filter(match_id=view["id"])] == ["human"]


def _public_rng(match_id: int, version: int) -> random.Random:
    """How the seed was derived before: from the match id and version alone, both public."""
    digest = hashlib.sha256(f"bot:{match_id}:{version}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def _draws(rng: random.Random) -> list[float]:
    return [rng.random() for _ in range(8)]


def test_a_bot_seed_cannot_be_derived_from_public_data(settings: Any) -> None:
    settings.SECRET_KEY = "one server secret"
    keyed = _draws(turns.decision_rng(7, 42))
    assert keyed != _draws(_public_rng(7, 42))
    # The same secret gives the same draws (a replayed task makes the same choice) ...
    assert keyed == _draws(turns.decision_rng(7, 42))
    # ... another secret other draws, and another version of the match other draws.
    assert _draws(turns.decision_rng(7, 43)) != keyed
    settings.SECRET_KEY = "another server secret"
    assert _draws(turns.decision_rng(7, 42)) != keyed
