"""The client's address, as far as this deployment's own proxies vouch for it.

Rate limits (DRF) and failed-login records (django-axes) both key on it, so both call
``client_ip``. ``X-Forwarded-For`` is written by whoever sent the request: only the entries our
own proxies appended can be believed. With ``BALOOT_TRUSTED_PROXIES = N`` the client is the Nth
address from the right (each proxy appends the address it received the request from); with 0
(the default) the header is ignored and the socket's peer, ``REMOTE_ADDR``, is the client. This
is DRF's ``NUM_PROXIES`` rule, with one addition: an entry that is not an IP address at all
falls back to ``REMOTE_ADDR`` (axes stores the address in an IP column).

This is the one place the address is decided: ``REMOTE_ADDR`` must be the socket's peer, so the
ASGI servers are started with their own proxy-header handling off (uvicorn's would rewrite it
from ``X-Forwarded-For`` for a peer in ``FORWARDED_ALLOW_IPS``, 127.0.0.1 by default): ``make
run`` passes ``--no-proxy-headers`` (scripts/supervise.py), the image and compose run
``baloot_site.workers.ProxyHeadersOffUvicornWorker``.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from django.conf import settings


def client_ip(request: Any) -> str | None:
    """The client address of a Django ``HttpRequest`` (or a DRF ``Request``)."""
    meta = request.META
    remote = meta.get("REMOTE_ADDR") or None
    proxies: int = settings.BALOOT_TRUSTED_PROXIES
    forwarded = meta.get("HTTP_X_FORWARDED_FOR")
    if proxies <= 0 or not forwarded:
        return remote
    hops = [hop.strip() for hop in forwarded.split(",")]
    # Fewer hops than proxies: take the oldest one there is, as DRF does.
    candidate = hops[-min(proxies, len(hops))]
    return candidate if _is_ip(candidate) else remote


def _is_ip(value: str) -> bool:
    try:
        ipaddress.ip_address(value)
    except ValueError:
        return False
    return True
