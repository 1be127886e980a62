"""The suite's tiers (tests/README.md, "Tiers"): which tests get the markers of the slow kinds
(registered in pyproject.toml), and the guard that keeps a test honest about them.

``make test-fast`` deselects every slow kind. A test gets its marker from the fixture it uses
(tests/conftest.py), from its directory, or from its module's ``pytestmark``; and the helpers
that start a process, a server, a browser or node call :func:`require`, so a test that starts
one without its marker fails in the whole suite instead of slipping into the fast tier.
"""

from __future__ import annotations

import pytest

# Fixture -> the markers of every test that uses it, directly or through another fixture.
FIXTURE_MARKERS: dict[str, tuple[str, ...]] = {
    "stream_server": ("server",),
    "live_server": ("server",),
    "worker": ("worker",),
    # tests/moderation: a match played through the API into its second round, for each test.
    "played": ("slow",),
}

# A directory of tests/ -> the markers of every test in it.
DIRECTORY_MARKERS: dict[str, tuple[str, ...]] = {
    "drills": ("drill",),
}

# The test being run (set by tests/conftest.py around each test), for require().
current: pytest.Item | None = None


def require(marker: str, what: str) -> None:
    """Fail the running test unless it carries ``marker``: it is about to start ``what``."""
    item = current
    if item is not None and item.get_closest_marker(marker) is None:
        raise AssertionError(
            f"{item.nodeid} starts {what} but is not marked {marker!r}: add "
            f"@pytest.mark.{marker} (or pytestmark), so that make test-fast leaves it out"
        )
