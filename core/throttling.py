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

from core.client_ip import client_ip

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

    def get_ident(self, request: Request) -> str:
        # Anonymous callers are told apart by address; only our own proxies' word counts
        # (DRF's default trusts any X-Forwarded-For, so rotating it escaped every limit).
        return client_ip(request) or ""


class AddressRateThrottle(FailOpenScopedRateThrottle):
    """A second budget per client address, for the views that name a scope in
    ``address_throttle_scope`` (register and login share ``auth_address``). The ``auth`` scope
    is a per-minute burst limit; this one, hourly by default, caps what one address can do
    however it paces itself (farming accounts, guessing passwords across many accounts). Keyed
    by address even for a logged-in caller, so a token does not buy a fresh budget."""

    scope_attr = "address_throttle_scope"

    def get_cache_key(self, request: Request, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
