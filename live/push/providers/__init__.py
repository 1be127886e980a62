"""Push providers behind one interface: ``send(target, payload, collapse_key) -> Result``.

``PUSH_BACKENDS`` maps each platform to a backend name: ``log`` (the embedded default, which
writes the payload to the log) or the platform's own (``fcm``, ``apns``, ``webpush``).
"""

from __future__ import annotations

import threading
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


_made: dict[str, Provider] = {}
_lock = threading.Lock()


def _provider(name: str) -> Provider:
    with _lock:
        if name not in _made:
            module, _, cls = BACKENDS[name].partition(":")
            _made[name] = getattr(import_module(module), cls)()
        return _made[name]


def provider_for(platform: str) -> Provider:
    return _provider(settings.PUSH_BACKENDS.get(platform, "log"))


def providers_reset() -> None:
    """Close and forget the providers made so far (their connections and cached
    credentials), for settings that changed (tests) or a process that ends."""
    with _lock:
        for provider in _made.values():
            close = getattr(provider, "close", None)
            if close is not None:
                close()
        _made.clear()
