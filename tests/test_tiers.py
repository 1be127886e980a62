"""The tiers' markers (tests/README.md, "Tiers") come from what a test uses, and a test that
starts a slow kind of thing without its marker fails rather than slipping into make test-fast."""

from __future__ import annotations

from pathlib import Path
from typing import cast

import pytest

from tests import conftest
from tests.support import tiers

TESTS = Path(conftest.__file__).parent


class Item:
    """What the marking hook reads of a collected test, and the markers it adds."""

    def __init__(self, path: Path, fixturenames: list[str], markers: tuple[str, ...] = ()) -> None:
        self.path = path
        self.fixturenames = fixturenames
        self.markers = list(markers)

    def get_closest_marker(self, name: str) -> str | None:
        return name if name in self.markers else None

    def add_marker(self, name: str) -> None:
        self.markers.append(name)


def _marked(*items: Item) -> list[list[str]]:
    conftest.pytest_collection_modifyitems(
        cast(pytest.Config, None), cast(list[pytest.Item], list(items))
    )
    return [sorted(item.markers) for item in items]


def test_the_fixtures_a_test_uses_and_its_directory_give_it_its_markers() -> None:
    assert _marked(
        Item(TESTS / "live" / "test_x.py", ["db", "stream_server", "own_channel_prefix"]),
        Item(TESTS / "tasks" / "test_x.py", ["worker", "transactional_db"]),
        Item(TESTS / "contract" / "test_x.py", ["live_server", "worker"], ("worker",)),
        Item(TESTS / "drills" / "test_x.py", ["db"]),
        Item(TESTS / "api" / "test_x.py", ["db", "table"]),
    ) == [["server"], ["worker"], ["server", "worker"], ["drill"], []]


def test_starting_a_server_without_its_marker_fails_the_test(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert tiers.current is request.node  # set around each test by tests/conftest.py
    with pytest.raises(AssertionError, match="is not marked 'server'"):
        tiers.require("server", "uvicorn")
    with pytest.raises(AssertionError, match="is not marked 'worker'"):
        tiers.require("worker", "a Celery worker process")
    # A test that carries the marker may.
    item = Item(TESTS / "live" / "test_x.py", [], ("server",))
    monkeypatch.setattr(tiers, "current", cast(pytest.Item, item))
    tiers.require("server", "uvicorn")
