"""Rate limits that fail open when their cache is down.

The throttle counters live in the cache (Redis in production, ``CACHE_URL``). The counters are
a guard, not state: losing them for the seconds a Redis restart takes must not turn every
request into a 500, so a cache error lets the request through and logs a warning instead.
"""

from __future__ import annotations

import logging
from typing import Any

from rest_framework.request import Request
from rest_framework.throttling import ScopedRateThrottle

log = logging.getLogger(__name__)

try:  # the Redis client is there whenever CACHE_URL can point at Redis (celery[redis])
    from redis.exceptions import RedisError

    _CACHE_ERRORS: tuple[type[BaseException], ...] = (RedisError, OSError)
except ImportError:  # pragma: no cover
    _CACHE_ERRORS = (OSError,)


class FailOpenScopedRateThrottle(ScopedRateThrottle):
    """DRF's per-scope throttle; lets the request through if the cache cannot be reached."""

    def allow_request(self, request: Request, view: Any) -> bool:
        try:
            return super().allow_request(request, view)
        except _CACHE_ERRORS as exc:
            log.warning("rate limit skipped, cache unavailable: %s", exc.__class__.__name__)
            return True
