"""Contract tests: fixtures shared by the fuzzing and the generated-client tests.

The real Celery worker fixture the bot match uses comes from tests/conftest.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from rest_framework.throttling import ScopedRateThrottle


@pytest.fixture
def no_throttling(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Rates high enough that fuzzing and scripted play never trip them.

    ScopedRateThrottle copies settings.REST_FRAMEWORK's rates into a class attribute at
    import, so overriding the setting would not reach it; the attribute is patched instead.
    """
    rates: dict[str, Any] = dict.fromkeys(ScopedRateThrottle.THROTTLE_RATES, "1000000/min")
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", rates)
    yield
