"""Which Web Push endpoints we register and send to.

An endpoint is a URL a browser gave the client and the client gave us: we POST to it. It must
be ``https`` on a DNS name of the public internet (``core.outbound.url_pattern``: never an
address in any spelling, no ``user@``, no local name), on the default port or one of
``WEBPUSH_ALLOWED_PORTS``, and on one of ``WEBPUSH_ALLOWED_HOSTS`` when that is set.
``WEBPUSH_ALLOW_HTTP`` (tests only) lets ``http`` through too. The API publishes the same
pattern it checks (``endpoint_pattern``), and the sender checks a stored endpoint again before
sending (a row may predate a rule), then connects through ``core.outbound``'s guard.
"""

from __future__ import annotations

import re
from functools import lru_cache

from django.conf import settings
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from core import outbound

MAX_LENGTH = 1024

NOT_HTTPS = _("Must be an https URL.")
NOT_A_PUBLIC_NAME = _(
    "Must name the push service by its public DNS name: no IP address, local name, user "
    "name or password."
)
PORT_NOT_ALLOWED = _("This port is not allowed for a push service.")
HOST_NOT_ALLOWED = _("This push service is not allowed.")

# What the reasons look at once the pattern has refused a URL (the pattern decides; these
# only say why).
_AUTHORITY = re.compile(r"(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*)://(?P<authority>[^/?#]*)")
_PORT = re.compile(r"(?P<host>.*):(?P<port>[0-9]*)")


def _schemes() -> tuple[str, ...]:
    return ("https", "http") if settings.WEBPUSH_ALLOW_HTTP else ("https",)


@lru_cache(maxsize=8)
def _compiled(
    schemes: tuple[str, ...], ports: tuple[int, ...], hosts: tuple[str, ...]
) -> tuple[str, re.Pattern[str], re.Pattern[str]]:
    pattern = outbound.url_pattern(schemes=schemes, ports=ports, hosts=hosts)
    any_host = outbound.url_pattern(schemes=schemes, ports=ports)
    return pattern, re.compile(pattern), re.compile(any_host)


def _current() -> tuple[str, re.Pattern[str], re.Pattern[str]]:
    return _compiled(
        _schemes(),
        tuple(int(p) for p in settings.WEBPUSH_ALLOWED_PORTS),
        tuple(settings.WEBPUSH_ALLOWED_HOSTS),
    )


def endpoint_pattern() -> str:
    """The pattern an endpoint must match whole, as the schema publishes it."""
    return _current()[0]


def endpoint_refusal(url: str) -> str | Promise | None:
    """Why ``url`` is no endpoint we may send to, or None when it is one."""
    _pattern, allowed, any_host = _current()
    if len(url) <= MAX_LENGTH and allowed.fullmatch(url):
        return None
    if len(url) <= MAX_LENGTH and any_host.fullmatch(url):
        return HOST_NOT_ALLOWED  # a fine public URL, on a host the allowlist leaves out
    found = _AUTHORITY.match(url)
    if found is None or found["scheme"] not in _schemes():
        return NOT_HTTPS
    authority = found["authority"]
    if "@" in authority or authority.startswith("["):
        return NOT_A_PUBLIC_NAME
    with_port = _PORT.fullmatch(authority)
    host = with_port["host"] if with_port else authority
    odd_port = bool(
        with_port
        and with_port["port"]
        and int(with_port["port"]) not in settings.WEBPUSH_ALLOWED_PORTS
    )
    # The port is the reason only when the host would do (an address on an odd port is
    # refused for the address).
    if odd_port and any_host.fullmatch(url.replace(authority, host, 1)):
        return PORT_NOT_ALLOWED
    if not any_host.fullmatch(f"{found['scheme']}://{host}/"):
        return NOT_A_PUBLIC_NAME
    return NOT_HTTPS  # the rest of it is malformed (a space, a control character, too long)
