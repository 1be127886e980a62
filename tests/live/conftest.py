"""The live stream's fixtures: each stream test has a channel layer prefix of this run's own and
fresh layers; the server is the suite's ``stream_server`` (tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings

# Scale-out is a drill of the Redis relay: collected only when the suite runs on it (the CI's
# PostgreSQL + Redis pass), rather than skipped on the embedded defaults.
collect_ignore: list[str] = []
if settings.LIVE["RELAY"] != "redis":
    collect_ignore.append("test_scale_out.py")


@pytest.fixture(autouse=True)
def _own_channel_prefix(own_channel_prefix: None) -> None:
    """Every stream test gets the run's own prefix and fresh layers (tests/conftest.py)."""


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
