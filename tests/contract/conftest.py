"""Contract tests: fixtures shared by the fuzzing and the generated-client tests.

The real Celery worker fixture the bot match uses comes from tests/conftest.py.

The fuzzer (test_fuzz.py) is collected on PostgreSQL only, or wherever BALOOT_TEST_FUZZ=1 asks
for it. What it checks, the HTTP contract, is the same code on both databases, and PostgreSQL
is the stricter of the two (an integer past its column's range is an error there, not on
SQLite), so that is where a generated input can find a 500 the other misses. CI's PostgreSQL +
Redis job runs it; running it on both doubled its minutes for nothing the other could add.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from rest_framework.throttling import ScopedRateThrottle

collect_ignore: list[str] = []
if (
    settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql"
    and os.environ.get("BALOOT_TEST_FUZZ") != "1"
):
    collect_ignore.append("test_fuzz.py")


@pytest.fixture
def no_throttling(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Rates high enough that fuzzing and scripted play never trip them.

    ScopedRateThrottle copies settings.REST_FRAMEWORK's rates into a class attribute at
    import, so overriding the setting would not reach it; the attribute is patched instead.
    """
    rates: dict[str, Any] = dict.fromkeys(ScopedRateThrottle.THROTTLE_RATES, "1000000/min")
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", rates)
    yield
