"""The suite's shared fixtures: players, tables, the real worker, throttling off, and the
clock and task queue of the in-process turn tests. Plain helpers live in tests/support/;
no conftest imports another."""

from __future__ import annotations

import os
from collections.abc import Callable, Generator, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.support import tiers
from tests.support.clock import FakeClock
from tests.support.live import Stream, ThreadServer
from tests.support.players import Player, create_match, player_register
from tests.support.tasks import BOT, DEADLINE, HARD_BOT, Queued, TaskRecorder
from tests.support.workers import WorkerProcess, worker_start

# --- Tiers (tests/README.md, "Tiers"): the slow kinds' markers, from what a test uses ----------


@pytest.hookimpl(tryfirst=True)  # before -m deselects by marker
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Marks each test with the kinds its fixtures and its directory make it: a new test that
    uses the worker or a server gets the marker without having to remember it."""
    tests_dir = Path(__file__).parent
    for item in items:
        fixtures = getattr(item, "fixturenames", ())
        kinds = {kind for name in fixtures for kind in tiers.FIXTURE_MARKERS.get(name, ())}
        inside = item.path.is_relative_to(tests_dir)
        parts = item.path.relative_to(tests_dir).parts if inside else ()
        kinds |= {kind for part in parts[:-1] for kind in tiers.DIRECTORY_MARKERS.get(part, ())}
        for kind in sorted(kinds):
            if item.get_closest_marker(kind) is None:
                item.add_marker(kind)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(
    item: pytest.Item, nextitem: pytest.Item | None
) -> Generator[None, object, object]:
    # The test whose fixtures and body may start a process: tiers.require() checks its markers.
    tiers.current = item
    try:
        return (yield)
    finally:
        tiers.current = None


@pytest.fixture(scope="session", autouse=True)
def _media_root(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    # Uploaded avatars go to a directory of the run's own, not the checkout's var/media.
    from django.test import override_settings

    root = tmp_path_factory.mktemp("media")
    with override_settings(MEDIA_ROOT=str(root)):
        yield root


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    # PBKDF2's deliberate slowness buys nothing in tests.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _no_throttle_state(settings: Any) -> None:
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def make_player(db: None) -> Callable[..., Player]:
    """``make_player(name=None)``: a new account and an API client holding its token."""
    return player_register


@pytest.fixture
def anon() -> APIClient:
    return APIClient()


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


@pytest.fixture
def no_throttling(monkeypatch: pytest.MonkeyPatch) -> None:
    """For crawls that read far more than a real client's per-minute budget."""
    from rest_framework.throttling import ScopedRateThrottle

    monkeypatch.setattr(ScopedRateThrottle, "allow_request", lambda self, request, view: True)


@pytest.fixture
def own_channel_prefix(settings: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A channel layer prefix of this run's own (other runs may share the Redis), and channel
    layer backends made afresh: a backend is bound to the event loop it first ran on, and each
    test's server runs its own loop."""
    from channels.layers import channel_layers

    prefix = f"baloot-test-{os.getpid()}"
    # For the worker and web processes a test starts, which read it from the environment.
    monkeypatch.setenv("CHANNEL_LAYER_PREFIX", prefix)
    layers = {name: {**value} for name, value in settings.CHANNEL_LAYERS.items()}
    if "prefix" in layers["default"].get("CONFIG", {}):
        layers["default"]["CONFIG"] = {**layers["default"]["CONFIG"], "prefix": prefix}
    settings.CHANNEL_LAYERS = layers
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture
def stream_server(transactional_db: None, own_channel_prefix: None) -> Iterator[ThreadServer]:
    """The ASGI app served by uvicorn in a thread of this process, on the test database."""
    server = ThreadServer().start()
    try:
        yield server
    finally:
        while Stream.opened:
            Stream.opened.pop().close()
        server.stop()


@pytest.fixture
def worker(transactional_db: None, tmp_path: Path) -> Iterator[WorkerProcess]:
    """A real ``celery worker -B`` process for this test (tests/support/workers.py)."""
    process = worker_start(tmp_path)
    try:
        yield process
    finally:
        process.stop()


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
    """Records the turn tasks enqueued (bot move, hard bot move, deadline) instead of sending
    them."""
    from games import tasks

    recorder = TaskRecorder()
    monkeypatch.setattr(tasks.play_bot_turn, "apply_async", recorder.apply_async_for(BOT))
    monkeypatch.setattr(tasks.play_hard_bot_turn, "apply_async", recorder.apply_async_for(HARD_BOT))
    monkeypatch.setattr(tasks.expire_turn, "apply_async", recorder.apply_async_for(DEADLINE))
    # A finished match's analysis: kept apart, so the turn tasks a commit queues read as before.
    monkeypatch.setattr(
        tasks.analyse_match,
        "apply_async",
        lambda args=None, kwargs=None, **_: recorder.analyses.append(tuple(args or ())),
    )
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
