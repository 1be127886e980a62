"""Web Push (RFC 8030) with pywebpush: the payload encrypted for the subscription (RFC 8291,
aes128gcm) and signed with our VAPID key (RFC 8292). ``Topic`` carries the collapse key, so a
newer message for a match replaces an undelivered older one at the push service.

The endpoint is a URL a client gave us, so the request goes only where such a request may:
the endpoint is checked again (``live.push.endpoints``: a stored row may predate a rule) and
sent through ``core.outbound``'s guarded session, which connects only to public addresses
(the very one it checked) and follows no redirect. An endpoint refused either way is ``GONE``:
no message can ever be delivered to it, so the device is deleted rather than tried again for
every notification (a browser that really uses that service subscribes again)."""

from __future__ import annotations

import logging
import threading
from typing import Any

import requests
from django.conf import settings
from pywebpush import WebPushException, webpush

from core.outbound import GuardedSession, OutboundRefused, guarded_session
from live.push.endpoints import endpoint_refusal
from live.push.models import Device
from live.push.providers.base import Result, payload_json, send_timeouts, status_result

log = logging.getLogger(__name__)


class WebPushProvider:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._session: GuardedSession | None = None

    def _http(self) -> GuardedSession:
        with self._lock:
            if self._session is None:
                self._session = guarded_session()
            return self._session

    def close(self) -> None:
        with self._lock:
            if self._session is not None:
                self._session.close()
                self._session = None

    def send(self, target: Device, payload: dict[str, Any], collapse_key: str) -> Result:
        refusal = endpoint_refusal(target.address)
        if refusal is not None:
            log.warning("web push device %s has an endpoint we never send to", target.pk)
            return Result.GONE
        subscription = {
            "endpoint": target.address,
            "keys": {"p256dh": target.p256dh, "auth": target.auth},
        }
        try:
            webpush(
                subscription_info=subscription,
                data=payload_json(payload),
                vapid_private_key=settings.WEBPUSH_VAPID_PRIVATE_KEY,
                # A fresh dict each time: pywebpush adds `aud` and `exp` to it.
                vapid_claims={"sub": settings.WEBPUSH_VAPID_SUBJECT},
                ttl=settings.PUSH_TTL_SECONDS,
                headers={"Topic": collapse_key, "Urgency": "high"},
                # (connect, read): requests takes the pair; pywebpush passes it through.
                timeout=send_timeouts(),
                requests_session=self._http(),
            )
        except WebPushException as exc:
            status = exc.response.status_code if exc.response is not None else None
            log.warning("web push to device %s refused: %s", target.pk, status)
            return Result.RETRY if status is None else status_result(status)
        except (OutboundRefused, requests.exceptions.InvalidURL) as exc:
            # Nothing was sent: the endpoint's host resolves to an address we never connect
            # to for a user (or the URL is unusable). (InvalidURL is a ValueError too.)
            log.warning("web push device %s refused before connecting: %s", target.pk, exc)
            return Result.GONE
        except ValueError as exc:
            # The subscription's key is no P-256 point: no message can ever be encrypted
            # for it, so the target is as good as gone.
            log.warning("web push device %s has an unusable key: %s", target.pk, exc)
            return Result.GONE
        except requests.RequestException as exc:
            log.warning("web push to device %s failed: %s", target.pk, type(exc).__name__)
            return Result.RETRY
        return Result.OK
