"""gunicorn's worker class for the image and compose: uvicorn's ASGI worker, without proxy headers.

The client address is decided in one place, ``core.client_ip``, by ``BALOOT_TRUSTED_PROXIES``
(rate limits and failed-login records key on it). uvicorn's own proxy-header handling is on by
default: for a peer in ``forwarded_allow_ips`` (gunicorn's setting, which the stock
``UvicornWorker`` hands to uvicorn; ``FORWARDED_ALLOW_IPS``, else 127.0.0.1 and ::1) it rewrites
the connection's client address (Django's ``REMOTE_ADDR``) from ``X-Forwarded-For`` before
Django sees the request, so a client rotating that header on such a peer got a fresh rate-limit
budget per request whatever ``BALOOT_TRUSTED_PROXIES`` said. With proxy headers off, uvicorn
never installs that middleware: ``REMOTE_ADDR`` is always the socket's peer and
``forwarded_allow_ips`` / ``FORWARDED_ALLOW_IPS`` have no effect on the address (nor on the
scheme: ``X-Forwarded-Proto`` is not read either).

``make run`` starts uvicorn with ``--no-proxy-headers`` for the same reason (scripts/supervise.py).
"""

from __future__ import annotations

from typing import Any

from uvicorn_worker import UvicornWorker


class ProxyHeadersOffUvicornWorker(UvicornWorker):
    """``uvicorn_worker.UvicornWorker`` with ``proxy_headers=False``."""

    CONFIG_KWARGS: dict[str, Any] = {**UvicornWorker.CONFIG_KWARGS, "proxy_headers": False}
