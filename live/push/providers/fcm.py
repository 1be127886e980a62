"""Firebase Cloud Messaging through its v1 HTTP API: ``POST {base}/v1/projects/{project}/
messages:send`` with an OAuth2 bearer token minted (google-auth) from a service-account key.
The base URL is a setting (``FCM_BASE_URL``) so tests can point it at a local server; the
key file's ``token_uri`` names the token endpoint."""

from __future__ import annotations

import logging
import threading
from typing import Any

import google.auth.exceptions
import google.auth.transport.requests
import httpx
from django.conf import settings
from google.oauth2 import service_account

from live.push.models import Device
from live.push.providers.base import (
    Result,
    httpx_timeout,
    payload_json,
    send_timeouts,
    status_result,
)

log = logging.getLogger(__name__)

SCOPE = "https://www.googleapis.com/auth/firebase.messaging"
# FCM's error codes that mean the registration token is dead.
GONE_CODES = {"UNREGISTERED"}


def _data(payload: dict[str, Any]) -> dict[str, str]:
    """FCM data values are strings: nested values as JSON."""
    return {
        key: value if isinstance(value, str) else payload_json(value)
        for key, value in payload.items()
        if value is not None
    }


class _TimedRequest(google.auth.transport.requests.Request):
    """google-auth's transport, with the push timeouts instead of its two minutes: the
    token endpoint is a host like any other."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        kwargs["timeout"] = send_timeouts()
        return super().__call__(*args, **kwargs)


class FcmProvider:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._credentials: Any = None
        self._client: httpx.Client | None = None

    def _http(self) -> httpx.Client:
        """One client per process, kept: a fresh one per send would build a TLS context
        (reading the CA bundle, tens of milliseconds) and open a new connection every time."""
        with self._lock:
            if self._client is None:
                self._client = httpx.Client(timeout=httpx_timeout())
            return self._client

    def close(self) -> None:
        with self._lock:
            if self._client is not None:
                self._client.close()
                self._client = None

    def _token(self, *, fresh: bool = False) -> str:
        with self._lock:
            if self._credentials is None:
                self._credentials = service_account.Credentials.from_service_account_file(
                    settings.FCM_SERVICE_ACCOUNT_FILE, scopes=[SCOPE]
                )
            if fresh or not self._credentials.valid:
                self._credentials.refresh(_TimedRequest())
            return str(self._credentials.token)

    def send(self, target: Device, payload: dict[str, Any], collapse_key: str) -> Result:
        message = {
            "message": {
                "token": target.address,
                "notification": {"title": payload["title"], "body": payload["body"]},
                "data": _data(payload),
                "android": {"collapse_key": collapse_key, "priority": "high"},
                "apns": {"headers": {"apns-collapse-id": collapse_key}},
            }
        }
        url = (
            f"{settings.FCM_BASE_URL.rstrip('/')}/v1/projects/"
            f"{settings.FCM_PROJECT_ID}/messages:send"
        )
        try:
            token = self._token()
            response = self._http().post(
                url, json=message, headers={"Authorization": f"Bearer {token}"}
            )
        except (httpx.HTTPError, google.auth.exceptions.GoogleAuthError, OSError) as exc:
            log.warning("fcm send to device %s failed: %s", target.pk, type(exc).__name__)
            return Result.RETRY
        if response.status_code == 401:
            self._token(fresh=True)  # the next attempt carries a new token
        result = status_result(response.status_code)
        if result is Result.FAILED and _error_codes(response) & GONE_CODES:
            result = Result.GONE
        if result is not Result.OK:
            log.warning("fcm refused device %s: %s", target.pk, response.status_code)
        return result


def _error_codes(response: httpx.Response) -> set[str]:
    """The ``errorCode`` of each detail of an FCM error body (UNREGISTERED, ...)."""
    try:
        error = response.json().get("error", {})
    except ValueError:
        return set()
    codes = {str(d.get("errorCode")) for d in error.get("details", []) if isinstance(d, dict)}
    return codes | {str(error.get("status"))}
