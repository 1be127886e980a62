"""Web Push (RFC 8030) with pywebpush: the payload encrypted for the subscription (RFC 8291,
aes128gcm) and signed with our VAPID key (RFC 8292). ``Topic`` carries the collapse key, so a
newer message for a match replaces an undelivered older one at the push service."""

from __future__ import annotations

import logging
from typing import Any

import requests
from django.conf import settings
from pywebpush import WebPushException, webpush

from live.push.models import Device
from live.push.providers.base import Result, payload_json, status_result

log = logging.getLogger(__name__)


class WebPushProvider:
    def send(self, target: Device, payload: dict[str, Any], collapse_key: str) -> Result:
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
                timeout=settings.PUSH_TIMEOUT_SECONDS,
            )
        except WebPushException as exc:
            status = exc.response.status_code if exc.response is not None else None
            log.warning("web push to device %s refused: %s", target.pk, status)
            return Result.RETRY if status is None else status_result(status)
        except ValueError as exc:
            # The subscription's key is no P-256 point: no message can ever be encrypted
            # for it, so the target is as good as gone.
            log.warning("web push device %s has an unusable key: %s", target.pk, exc)
            return Result.GONE
        except requests.RequestException as exc:
            log.warning("web push to device %s failed: %s", target.pk, type(exc).__name__)
            return Result.RETRY
        return Result.OK
