"""Push providers behind one interface: ``send(target, payload, collapse_key) -> Result``.

``PUSH_BACKENDS`` maps each platform to a backend name: ``log`` (the embedded default, which
writes the payload to the log) or the platform's own (``fcm``, ``apns``, ``webpush``).
"""

from __future__ import annotations

from functools import cache
from importlib import import_module

from django.conf import settings

from live.push.providers.base import Provider, Result

__all__ = ["BACKENDS", "Provider", "Result", "provider_for"]

BACKENDS = {
    "log": "live.push.providers.log:LogProvider",
    "webpush": "live.push.providers.webpush:WebPushProvider",
    "fcm": "live.push.providers.fcm:FcmProvider",
    "apns": "live.push.providers.apns:ApnsProvider",
}


@cache
def _provider(name: str) -> Provider:
    module, _, cls = BACKENDS[name].partition(":")
    provider: Provider = getattr(import_module(module), cls)()
    return provider


def provider_for(platform: str) -> Provider:
    return _provider(settings.PUSH_BACKENDS.get(platform, "log"))


def providers_reset() -> None:
    """Forget the providers made so far (their cached credentials); tests change settings."""
    _provider.cache_clear()
