"""Apple Push Notification service over HTTP/2 (httpx with h2), token-based: a JWT signed
ES256 with the team's .p8 key (PyJWT), renewed every 50 minutes (Apple refuses tokens older
than an hour and too frequent renewals). ``apns-collapse-id`` carries the collapse key."""

from __future__ import annotations

import logging
import ssl
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import jwt
from django.conf import settings

from live.push.models import Device
from live.push.providers.base import (
    Result,
    httpx_timeout,
    payload_json,
    status_result,
)

log = logging.getLogger(__name__)

TOKEN_LIFETIME_SECONDS = 50 * 60
# Reasons of a 400 that mean the device token is not (or no longer) valid for us.
GONE_REASONS = {"BadDeviceToken", "DeviceTokenNotForTopic", "Unregistered"}


class ApnsProvider:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._jwt: tuple[str, float] | None = None
        self._client: httpx.Client | None = None

    def _bearer(self, *, fresh: bool = False) -> str:
        with self._lock:
            now = time.time()
            if fresh or self._jwt is None or now - self._jwt[1] > TOKEN_LIFETIME_SECONDS:
                key = Path(settings.APNS_KEY_FILE).read_text()
                token = jwt.encode(
                    {"iss": settings.APNS_TEAM_ID, "iat": int(now)},
                    key,
                    algorithm="ES256",
                    headers={"kid": settings.APNS_KEY_ID},
                )
                self._jwt = (token, now)
            return self._jwt[0]

    def _http(self) -> httpx.Client:
        with self._lock:
            if self._client is None:
                setting = settings.APNS_VERIFY
                # true, false, or a CA bundle to trust (a local test server)
                verify: bool | ssl.SSLContext = (
                    ssl.create_default_context(cafile=setting)
                    if isinstance(setting, str)
                    else bool(setting)
                )
                self._client = httpx.Client(
                    http2=True,
                    base_url=settings.APNS_BASE_URL,
                    verify=verify,
                    timeout=httpx_timeout(),
                )
            return self._client

    def close(self) -> None:
        with self._lock:
            if self._client is not None:
                self._client.close()
                self._client = None

    def send(self, target: Device, payload: dict[str, Any], collapse_key: str) -> Result:
        body = {
            "aps": {
                "alert": {"title": payload["title"], "body": payload["body"]},
                "sound": "default",
            },
            **{k: v for k, v in payload.items() if k not in ("title", "body")},
        }
        headers = {
            "authorization": f"bearer {self._bearer()}",
            "apns-topic": settings.APNS_TOPIC,
            "apns-push-type": "alert",
            "apns-priority": "10",
            "apns-collapse-id": collapse_key,
        }
        try:
            response = self._http().post(
                f"/3/device/{target.address}", content=payload_json(body), headers=headers
            )
        except httpx.HTTPError as exc:
            log.warning("apns send to device %s failed: %s", target.pk, type(exc).__name__)
            return Result.RETRY
        reason = _reason(response)
        if response.status_code == 403 and reason == "ExpiredProviderToken":
            self._bearer(fresh=True)
        result = status_result(response.status_code)
        if response.status_code == 400 and reason in GONE_REASONS:
            result = Result.GONE
        if result is not Result.OK:
            log.warning("apns refused device %s: %s %s", target.pk, response.status_code, reason)
        return result


def _reason(response: httpx.Response) -> str:
    try:
        return str(response.json().get("reason", ""))
    except ValueError:
        return ""
