"""Shared fixtures: players with tokens, API clients per persona, and match helpers."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.support.clock import FakeClock
from tests.support.tasks import BOT, DEADLINE, Queued, TaskRecorder

_counter = itertools.count(1)


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    # PBKDF2's deliberate slowness buys nothing in tests.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _no_throttle_state(settings: Any) -> None:
    from django.core.cache import cache

    cache.clear()


@dataclass
class Player:
    user: Any
    token: str
    client: APIClient

    @property
    def id(self) -> int:
        return self.user.pk


@pytest.fixture
def make_player(db: None) -> Callable[..., Player]:
    from accounts.services import user_register

    def make(name: str | None = None) -> Player:
        n = next(_counter)
        username = name or f"player{n}"
        user, token = user_register(
            username=username, password="correct horse battery", display_name=f"P{n}"
        )
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
        return Player(user=user, token=token, client=client)

    return make


@pytest.fixture
def anon() -> APIClient:
    return APIClient()


def create_match(creator: Player, **options: Any) -> dict[str, Any]:
    response = creator.client.post("/api/v1/matches", options, format="json")
    assert response.status_code == 201, response.content
    return response.json()


@pytest.fixture
def table(make_player: Callable[..., Player]) -> Callable[..., tuple[dict[str, Any], list[Player]]]:
    """Four human players seated in a new active match (seat i = players[i])."""

    def make(**options: Any) -> tuple[dict[str, Any], list[Player]]:
        players = [make_player() for _ in range(4)]
        created = create_match(players[0], **options)
        for seat, player in enumerate(players[1:], start=1):
            body = {"seat": seat}
            if created.get("invite_code"):
                body["code"] = created["invite_code"]
            response = player.client.post(
                f"/api/v1/matches/{created['id']}/join", body, format="json"
            )
            assert response.status_code == 200, response.content
        view = players[0].client.get(f"/api/v1/matches/{created['id']}").json()
        assert view["status"] == "active"
        return view, players

    return make


# --- The turn rules in-process: a clock the test sets, and the tasks a commit enqueues ------


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    """Replaces the turn rules' clock (``core.clock.now``); move it with ``clock.advance``."""
    import core.clock

    fake = FakeClock()
    monkeypatch.setattr(core.clock, "now", fake.now)
    return fake


@pytest.fixture
def task_recorder(monkeypatch: pytest.MonkeyPatch) -> TaskRecorder:
    """Records the turn tasks enqueued (bot move, deadline) instead of sending them."""
    from games import tasks

    recorder = TaskRecorder()
    monkeypatch.setattr(tasks.play_bot_turn, "apply_async", recorder.apply_async_for(BOT))
    monkeypatch.setattr(tasks.expire_turn, "apply_async", recorder.apply_async_for(DEADLINE))
    return recorder


@pytest.fixture
def commit(
    django_capture_on_commit_callbacks: Any, task_recorder: TaskRecorder
) -> Callable[[], AbstractContextManager[list[Queued]]]:
    """``with commit() as queued:`` runs the block as if it committed: it checks that nothing
    was enqueued before the commit, runs the ``on_commit`` callbacks, and fills ``queued``
    with the tasks they enqueued."""

    @contextmanager
    def run() -> Iterator[list[Queued]]:
        queued: list[Queued] = []
        with django_capture_on_commit_callbacks() as callbacks:
            yield queued
        assert task_recorder.take() == [], "a task was enqueued before the commit"
        for callback in callbacks:
            callback()
        queued.extend(task_recorder.take())

    return run
