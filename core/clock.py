"""The time the turn rules read: when a deadline is set, whether it has passed, which turns
the sweep finds due, and how far off a countdown is.

One function in one place, so a test can set the time explicitly (``tests/support/clock.py``
replaces ``now`` here) instead of sleeping through real deadlines. Callers import the module
and call ``clock.now()``, never ``from core.clock import now``: a name bound at import time
would keep the real clock when a test swaps it.
"""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone


def now() -> datetime:
    return timezone.now()
