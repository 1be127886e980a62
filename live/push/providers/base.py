from __future__ import annotations

import enum
import json
from typing import Any, Protocol

import httpx
from django.conf import settings

from live.push.models import Device


class Result(enum.Enum):
    OK = "ok"  # accepted by the push service
    GONE = "gone"  # the service says the target no longer exists: delete it
    RETRY = "retry"  # a passing failure (5xx, 429, network): try again later
    FAILED = "failed"  # refused for good (a malformed request): not retried, target kept


class Provider(Protocol):
    def send(self, target: Device, payload: dict[str, Any], collapse_key: str) -> Result: ...


def status_result(status: int) -> Result:
    """The common reading of an HTTP status by the push services."""
    if status < 300:
        return Result.OK
    if status in (404, 410):
        return Result.GONE
    if status in (401, 403, 408, 429) or status >= 500:
        return Result.RETRY
    return Result.FAILED


def payload_json(payload: dict[str, Any]) -> str:
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False)


def send_timeouts() -> tuple[float, float]:
    """``(connect, read)`` for every send to a push service, as ``requests`` takes them:
    short, so a service that does not answer holds a push worker process for seconds, and
    the send is retried later (live/push/limits.py)."""
    return settings.PUSH_CONNECT_TIMEOUT_SECONDS, settings.PUSH_TIMEOUT_SECONDS


def httpx_timeout() -> httpx.Timeout:
    """The same for httpx: connect, and every read, write and pool wait after it."""
    connect, read = send_timeouts()
    return httpx.Timeout(read, connect=connect)
