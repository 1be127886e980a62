"""An ASGI server on the test database for the stream the metrics test opens."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.live import Stream, ThreadServer


@pytest.fixture
def stream_server(transactional_db: None) -> Iterator[ThreadServer]:
    server = ThreadServer().start()
    try:
        yield server
    finally:
        while Stream.opened:
            Stream.opened.pop().close()
        server.stop()
