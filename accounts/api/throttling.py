"""A rate limit on something the body names (an account, a login), checked by the view once
it has parsed the body: DRF's throttles run before, and know only the caller."""

from __future__ import annotations

import hashlib
import logging
from typing import Any

from rest_framework.exceptions import Throttled
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle

from core.throttling import _CACHE_ERRORS, FailOpenScopedRateThrottle

log = logging.getLogger(__name__)


class KeyedRateThrottle(SimpleRateThrottle):
    """The budget of ``scope`` (a DEFAULT_THROTTLE_RATES entry) for one ``key``. The key is
    hashed into the cache key: it may be an address or a login, which has no place in a cache
    dump. Fails open like every throttle here (core.throttling)."""

    def __init__(self, scope: str, key: str) -> None:
        self.scope = scope
        self.named = key  # (not `key`: DRF keeps the cache key there)
        # The rates as they are now (a test may change them), as ScopedRateThrottle reads them.
        self.THROTTLE_RATES = FailOpenScopedRateThrottle.THROTTLE_RATES
        super().__init__()

    def get_cache_key(self, request: Request, view: Any) -> str:
        ident = hashlib.sha256(self.named.encode()).hexdigest()
        return self.cache_format % {"scope": self.scope, "ident": ident}

    def allow_request(self, request: Request, view: Any) -> bool:
        try:
            return super().allow_request(request, view)
        except _CACHE_ERRORS as exc:  # the cache is down: the limit is a guard, not state
            log.warning("rate limit skipped, cache unavailable: %s", exc.__class__.__name__)
            return True


def throttle_key(request: Request, view: Any, scope: str, key: str) -> None:
    """Count this request against ``scope``'s budget for ``key``; ``429 throttled`` (with
    ``Retry-After``) past it."""
    throttle = KeyedRateThrottle(scope, key)
    if not throttle.allow_request(request, view):
        raise Throttled(wait=throttle.wait())
