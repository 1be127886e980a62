"""The request path at the framework's cost (issue 24): the ASGI application serves HTTP on a
fixed pool of threads whose database connections outlive the request, and the hot reads stay
within their query budgets."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator, Mapping
from typing import Any, cast

import pytest
from asgiref.sync import async_to_sync
from django.conf import settings
from django.core.signals import request_finished
from django.db import close_old_connections, connections

from tests.support.players import Player


def _get(path: str, token: str) -> tuple[int, bytes]:
    """One GET through the real ASGI application (what uvicorn and gunicorn serve)."""
    from baloot_site.asgi import application

    sent: list[Mapping[str, Any]] = []
    request = [{"type": "http.request", "body": b"", "more_body": False}]

    async def receive() -> dict[str, Any]:
        if request:
            return request.pop()
        await asyncio.sleep(3600)
        return {"type": "http.disconnect"}

    async def send(message: Mapping[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), (b"authorization", f"Bearer {token}".encode())],
        "client": ("127.0.0.1", 40000),
        "server": ("testserver", 80),
    }
    async_to_sync(cast(Any, application))(scope, receive, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    return start["status"], b"".join(m.get("body", b"") for m in sent[1:])


REQUESTS = 3 * 8


@pytest.fixture(autouse=True)
def _http_threads_close_their_connections() -> Iterator[None]:
    """The HTTP threads keep their database connections after a test, as they should in a
    server; here they would keep the test database from being dropped at the end."""
    yield
    from baloot_site.asgi import django_application

    threads = django_application.executor._max_workers
    everyone = threading.Barrier(threads)

    def close() -> None:
        everyone.wait(timeout=10)  # one task on each thread of the pool, none twice
        connections.close_all()

    for done in [django_application.executor.submit(close) for _ in range(threads)]:
        done.result()


def _backend(wrapper: Any) -> object:
    """What identifies the database session a request used: the server process on
    PostgreSQL (a pooled connection is handed out again), the connection object on SQLite."""
    if wrapper.vendor == "postgresql":
        return wrapper.connection.info.backend_pid
    return id(wrapper.connection)


@pytest.mark.django_db(transaction=True)
def test_requests_through_the_asgi_app_reuse_one_thread_and_one_database_session(
    table: Callable[..., tuple[dict[str, Any], list[Player]]],
) -> None:
    view, players = table()
    seen: list[tuple[int, object]] = []

    def record(**_kwargs: object) -> None:
        wrapper = connections["default"]
        if wrapper.connection is not None:  # the request's own connection, before it closes
            seen.append((threading.get_ident(), _backend(wrapper)))

    # Ahead of close_old_connections, which gives a pooled connection back.
    request_finished.disconnect(close_old_connections)
    request_finished.connect(record)
    request_finished.connect(close_old_connections)
    try:
        for _ in range(REQUESTS):
            status, _body = _get(f"/api/v1/matches/{view['id']}", players[0].token)
            assert status == 200
    finally:
        request_finished.disconnect(record)
    assert len(seen) == REQUESTS
    threads = {thread for thread, _ in seen}
    sessions = {session for _, session in seen}
    # A request goes to an idle thread of the pool, or to a new one while the pool is not full
    # (the last request's thread may not count as idle yet): never more than the pool.
    assert len(threads) <= settings.BALOOT_HTTP_THREADS < REQUESTS, "a new thread per request"
    assert threading.get_ident() not in threads
    assert len(sessions) <= len(threads), "a new database connection per request"


@pytest.mark.django_db(transaction=True)
def test_a_revoked_token_is_refused_on_the_very_next_request_through_the_asgi_app(
    make_player: Callable[..., Player],
) -> None:
    player = make_player()
    assert _get("/api/v1/me/matches", player.token)[0] == 200
    assert player.client.post("/api/v1/auth/logout").status_code == 204
    assert _get("/api/v1/me/matches", player.token)[0] == 401


@pytest.mark.django_db
def test_the_match_view_reads_the_token_then_the_match_with_its_seats(
    table: Callable[..., tuple[dict[str, Any], list[Player]]],
    django_assert_max_num_queries: Any,
) -> None:
    view, players = table()
    for seated in (players[0], players[3]):
        with django_assert_max_num_queries(2):
            assert seated.client.get(f"/api/v1/matches/{view['id']}").status_code == 200
