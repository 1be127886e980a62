"""Rate limits that fail open when their cache is down.

The throttle counters live in the cache (Redis in production, ``CACHE_URL``). The counters are
a guard, not state: losing them for the seconds a Redis restart takes must not turn every
request into a 500, so a cache error lets the request through and logs a warning instead.
"""

from __future__ import annotations

import logging
from typing import Any

from rest_framework.exceptions import Throttled
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle, ScopedRateThrottle

from core.client_ip import client_ip

log = logging.getLogger(__name__)

try:  # the Redis client is there whenever CACHE_URL can point at Redis (celery[redis])
    from redis.exceptions import RedisError

    _CACHE_ERRORS: tuple[type[BaseException], ...] = (RedisError, OSError)
except ImportError:  # pragma: no cover
    _CACHE_ERRORS = (OSError,)


class FailOpenScopedRateThrottle(ScopedRateThrottle):
    """DRF's per-scope throttle; lets the request through if the cache cannot be reached."""

    duration: int  # seconds of the rate's window, set by DRF from the scope's rate

    def allow_request(self, request: Request, view: Any) -> bool:
        try:
            return super().allow_request(request, view)
        except _CACHE_ERRORS as exc:
            log.warning("rate limit skipped, cache unavailable: %s", exc.__class__.__name__)
            return True

    def throttle_success(self) -> bool:
        self.counted = True  # what refund() may give back: this request is in the history
        return super().throttle_success()

    def refund(self) -> None:
        """Take this request out of the history it was counted in (its timestamp), for a
        request the view then refused: a refusal should not use up the caller's allowance."""
        if not getattr(self, "counted", False):
            return
        self.counted = False
        try:
            history = self.cache.get(self.key, [])
            if self.now in history:
                history.remove(self.now)
                self.cache.set(self.key, history, self.duration)
        except _CACHE_ERRORS as exc:
            log.warning("rate limit refund skipped, cache unavailable: %s", exc.__class__.__name__)

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


class RefundOnRefusal:
    """A view mixin: a request the view refuses (any error, a 429 of another of its throttles
    included) does not count against its throttles. For budgets meant to pace what a user
    *does* (a chat message sent), not what they try; a budget against guessing must count
    every attempt and does not use this. The refund is a read-modify-write of the counter, so
    two refusals at the same instant may give back one; the budget errs on the caller's side."""

    _counted_throttles: list[BaseThrottle]
    # Only these methods' refusals are refunded (a view's reads keep their plain budget).
    refund_methods: tuple[str, ...] = ("POST",)

    def get_throttles(self) -> list[BaseThrottle]:
        self._counted_throttles = super().get_throttles()  # type: ignore[misc]
        return self._counted_throttles

    def check_throttles(self, request: Request) -> None:
        try:
            super().check_throttles(request)  # type: ignore[misc]
        except Throttled:
            self.refund_throttles()
            raise

    def refund_throttles(self) -> None:
        request = getattr(self, "request", None)  # the view's; set before throttles run
        if request is None or request.method not in self.refund_methods:
            return
        for throttle in getattr(self, "_counted_throttles", []):
            if isinstance(throttle, FailOpenScopedRateThrottle):
                throttle.refund()

    def handle_exception(self, exc: Exception) -> Any:
        if not isinstance(exc, Throttled):  # check_throttles refunded those already
            self.refund_throttles()
        return super().handle_exception(exc)  # type: ignore[misc]
