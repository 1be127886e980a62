"""The live stream's fixtures: an ASGI server on the test database, and a channel layer prefix
of this run's own (other runs may share the Redis)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from channels.layers import channel_layers
from django.conf import settings

from tests.support.live import Stream, ThreadServer

# Scale-out is a drill of the Redis relay: collected only when the suite runs on it (the CI's
# PostgreSQL + Redis pass), rather than skipped on the embedded defaults.
collect_ignore: list[str] = []
if settings.LIVE["RELAY"] != "redis":
    collect_ignore.append("test_scale_out.py")


@pytest.fixture(autouse=True)
def _own_channel_prefix(settings: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
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
def stream_server(transactional_db: None) -> Iterator[ThreadServer]:
    server = ThreadServer().start()
    try:
        yield server
    finally:
        while Stream.opened:
            Stream.opened.pop().close()
        server.stop()


@pytest.fixture(scope="session", autouse=True)
def _end_server_sessions(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """The servers' read threads keep their PostgreSQL sessions (CONN_MAX_AGE), which would
    stop the test database from being dropped at the end of the run: end them then."""
    yield
    from django.db import connection

    with django_db_blocker.unblock():
        if connection.vendor != "postgresql":
            return
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
