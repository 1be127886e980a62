"""What keeps one slow or dead push target from holding the push worker: short timeouts on
every send (``providers.base.send_timeouts``, which every provider passes to its HTTP client),
a bound on the sends in flight to one host and for one user, and a circuit breaker per host.

All the state lives in the ``push`` cache (settings.CACHES): Redis when the deployment has
one, else a table of the database, so every push worker process sees the same leases and the
same breakers. A slot is a lease, ``cache.add`` of one of N keys with an expiry: whoever
adds the key holds the slot until it deletes it, or until the expiry (a send cannot outlive
its task's hard time limit) if its process was killed mid-send.

A send that is not admitted (its host's breaker is open, or no slot freed up within
``PUSH_SLOT_WAIT_SECONDS``) is not a delivery attempt: the delivery defers the device, and its
row is retried after the wait ``send_admit`` returns, without spending one of the row's
``PUSH_MAX_ATTEMPTS``.

The breaker counts failures since the last success per host, so when several processes
fail at once on the database cache (whose ``incr`` is a read then a write) a failure may go
uncounted; the breaker then opens a send or two later. It is a guard, not an accountant.
"""

from __future__ import annotations

import logging
import math
import time
import uuid
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.core.cache import BaseCache, caches

from live.push.models import Device
from live.push.providers.base import Result, send_timeouts

log = logging.getLogger(__name__)

CACHE_ALIAS = "push"
# How long a failure count is remembered after the last failure; a host that fails once an
# hour never opens its breaker.
FAILURE_MEMORY_SECONDS = 600
# How often a send waiting for a slot looks again.
SLOT_POLL_SECONDS = 0.05


def _cache() -> BaseCache:
    return caches[CACHE_ALIAS]


def _now() -> float:
    """Wall-clock seconds, shared by every process (a breaker's end is stored as one)."""
    return time.time()


def _lease_seconds() -> int:
    # A send cannot outlive its task, which the worker kills at the hard time limit.
    return int(settings.CELERY_TASK_TIME_LIMIT) + 1


# --- Hosts ------------------------------------------------------------------------------------


def target_host(device: Device) -> str | None:
    """The host a send to ``device`` talks to: the configured service's for FCM and APNs, the
    endpoint's own for Web Push; None for the log backend, which sends nothing."""
    backend = settings.PUSH_BACKENDS.get(device.platform, "log")
    if backend == "fcm":
        url = settings.FCM_BASE_URL
    elif backend == "apns":
        url = settings.APNS_BASE_URL
    elif backend == "webpush":
        url = device.address
    else:
        return None
    try:
        parts = urlsplit(url)
        host, port = (parts.hostname or "").lower(), parts.port
    except ValueError:  # a malformed endpoint; the provider will refuse it
        return "invalid"
    return f"{host}:{port}" if port else host or "invalid"


# --- Slots ------------------------------------------------------------------------------------


def _slot_take(scope: str, limit: int, token: str) -> str | None:
    cache = _cache()
    for index in range(max(limit, 1)):
        key = f"slot:{scope}:{index}"
        if cache.add(key, token, timeout=_lease_seconds()):
            return key
    return None


def _slot_give(key: str, token: str) -> None:
    cache = _cache()
    if cache.get(key) == token:  # not a lease that expired and went to someone else
        cache.delete(key)


# --- The breaker ------------------------------------------------------------------------------


def _open_key(host: str) -> str:
    return f"breaker:{host}:open"


def _failures_key(host: str) -> str:
    return f"breaker:{host}:failures"


def _probe_key(host: str) -> str:
    return f"breaker:{host}:probe"


def breaker_wait(host: str) -> tuple[float, bool]:
    """``(seconds to wait, probe)``: 0 and False when the host is closed (healthy); the rest
    of the cool-down while it is open; once the cool-down is over, one process at a time may
    send (``probe``) while the others wait for its answer."""
    cache = _cache()
    until = cache.get(_open_key(host))
    now = _now()
    if until is not None and until > now:
        return until - now, False
    if (cache.get(_failures_key(host)) or 0) < settings.PUSH_BREAKER_FAILURES:
        return 0.0, False
    if cache.add(_probe_key(host), 1, timeout=_lease_seconds()):
        return 0.0, True
    return sum(send_timeouts()), False  # someone is probing: about one send from now


def breaker_record(host: str, result: Result, *, probe: bool) -> None:
    """Count a failure (the host did not answer, or answered 5xx/429: ``Result.RETRY``), or
    close the breaker on any answer the host gave."""
    cache = _cache()
    key = _failures_key(host)
    if result is Result.RETRY:
        cache.add(key, 0, timeout=FAILURE_MEMORY_SECONDS)
        try:
            failures = cache.incr(key)
        except ValueError:  # expired between the add and the incr
            failures = 1
            cache.set(key, failures, timeout=FAILURE_MEMORY_SECONDS)
        if failures >= settings.PUSH_BREAKER_FAILURES:
            cooldown = settings.PUSH_BREAKER_COOLDOWN_SECONDS
            # The stored end decides; the key's own expiry only tidies up after it.
            cache.set(_open_key(host), _now() + cooldown, timeout=math.ceil(cooldown) + 1)
            log.warning(
                "push host %s failed %d times in a row; skipping it for %.0f s",
                host,
                failures,
                cooldown,
            )
    elif cache.get(key):
        cache.delete(key)
        log.info("push host %s answers again", host)
    if probe:
        cache.delete(_probe_key(host))


# --- Admission --------------------------------------------------------------------------------


@dataclass
class Ticket:
    """An admitted send: the slots it holds, given back by ``send_done``."""

    host: str
    token: str
    slots: list[str]
    probe: bool = False


def send_admit(*, user_id: int, host: str) -> Ticket | float:
    """A ticket to send to ``host`` for ``user_id``, or the seconds to defer that send:
    the host's breaker is open, or its slots (or the user's) stayed taken for
    ``PUSH_SLOT_WAIT_SECONDS``."""
    wait, probe = breaker_wait(host)
    if wait > 0:
        return wait
    token = uuid.uuid4().hex
    ticket = Ticket(host=host, token=token, slots=[], probe=probe)
    scopes = (
        (f"user:{user_id}", settings.PUSH_USER_CONCURRENCY),
        (f"host:{host}", settings.PUSH_HOST_CONCURRENCY),
    )
    deadline = time.monotonic() + settings.PUSH_SLOT_WAIT_SECONDS
    for scope, limit in scopes:
        while (slot := _slot_take(scope, limit, token)) is None:
            if time.monotonic() >= deadline:
                _release(ticket)
                if probe:
                    _cache().delete(_probe_key(host))
                return float(settings.PUSH_BACKOFF_SECONDS)
            time.sleep(SLOT_POLL_SECONDS)
        ticket.slots.append(slot)
    return ticket


def _release(ticket: Ticket) -> None:
    for slot in ticket.slots:
        _slot_give(slot, ticket.token)
    ticket.slots.clear()


def send_done(ticket: Ticket, result: Result) -> None:
    """Give the slots back and tell the breaker how the host did."""
    _release(ticket)
    breaker_record(ticket.host, result, probe=ticket.probe)
