"""Outbound HTTP to addresses a user supplied: only to the public internet.

A URL that came from a client (a Web Push subscription's endpoint) is a request we make on
their behalf from inside our network. Left alone, ``https://127.0.0.1:8000/``, a name that
resolves to ``169.254.169.254`` or a redirect to either would have the worker knock on our own
services. Two layers keep it out:

- ``url_pattern`` builds the one regular expression such a URL must match when it is
  registered: the scheme, a DNS host name (never an address, in any spelling), no user
  information, one of the allowed ports, optionally one of the allowed hosts. The API
  publishes the same pattern in its schema.
- ``guarded_session`` is the ``requests.Session`` every such call goes through. Its transport
  resolves the host itself, refuses unless every address is public (``address_is_public``) or
  in the operator's ``OUTBOUND_ALLOWED_NETWORKS``, and connects to the very address it checked
  (a DNS answer that changes between the check and the connection changes nothing), keeping
  the host name for SNI, certificate verification and the ``Host`` header. It follows no
  redirect and reads no proxy, CA or ``.netrc`` setting from the environment.

URLs the operator configured (the FCM and APNs endpoints) need neither.
"""

from __future__ import annotations

import ipaddress
import re
import socket
import threading
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import urlsplit

import requests
from django.conf import settings
from requests.adapters import HTTPAdapter
from requests.exceptions import InvalidURL
from requests.utils import select_proxy
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import ConnectTimeoutError, NewConnectionError

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class OutboundRefused(requests.RequestException):
    """The request would reach an address (or use a route) we never connect to for a user:
    nothing was sent. A ``RequestException``, so a caller that knows only requests' errors
    still fails softly; one that knows this class treats it as permanent."""


# --- Which addresses are public -----------------------------------------------------------

# IPv4 blocks that are not globally reachable (IANA's IPv4 Special-Purpose Address Registry),
# plus multicast and the reserved 240/4 (which holds the broadcast address).
_NOT_PUBLIC_V4 = tuple(
    ipaddress.IPv4Network(block)
    for block in (
        "0.0.0.0/8",  # "this network", 0.0.0.0 itself included
        "10.0.0.0/8",  # private
        "100.64.0.0/10",  # shared address space (carrier-grade NAT)
        "127.0.0.0/8",  # loopback
        "169.254.0.0/16",  # link-local (cloud metadata services live here)
        "172.16.0.0/12",  # private
        "192.0.0.0/24",  # IETF protocol assignments
        "192.0.2.0/24",  # documentation (TEST-NET-1)
        "192.88.99.0/24",  # the retired 6to4 relay anycast
        "192.168.0.0/16",  # private
        "198.18.0.0/15",  # benchmarking
        "198.51.100.0/24",  # documentation (TEST-NET-2)
        "203.0.113.0/24",  # documentation (TEST-NET-3)
        "224.0.0.0/4",  # multicast
        "240.0.0.0/4",  # reserved, and 255.255.255.255
    )
)
# IPv6: only global unicast (2000::/3) can be public. That leaves out in one stroke the
# unspecified address and loopback, IPv4-mapped (::ffff:0:0/96) and -compatible (::/96)
# forms whatever they embed, discard-only, unique-local, link- and site-local and multicast.
_GLOBAL_UNICAST_V6 = ipaddress.IPv6Network("2000::/3")
_NOT_PUBLIC_V6 = tuple(
    ipaddress.IPv6Network(block)
    for block in (
        "2001::/23",  # IETF protocol assignments: Teredo, benchmarking, ORCHID
        "2001:db8::/32",  # documentation
        "3fff::/20",  # documentation (RFC 9637)
    )
)
# Forms that carry an IPv4 address inside: public exactly when what they carry is. A DNS64
# resolver (an IPv6-only network) answers 64:ff9b::/96 for every IPv4-only host, push
# services included, so the well-known NAT64 prefix cannot simply be refused.
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
_6TO4 = ipaddress.IPv6Network("2002::/16")


def embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address a NAT64 (64:ff9b::/96) or 6to4 (2002::/16) address reaches, if any."""
    if address in _NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    if address in _6TO4:
        return address.sixtofour
    return None


def address_is_public(address: Address) -> bool:
    """Whether ``address`` is on the public internet: not loopback, private, link-local,
    shared (CGNAT), multicast, reserved, unspecified or documentation space, nor a form of
    IPv6 that embeds an IPv4 address which is one of those."""
    if isinstance(address, ipaddress.IPv4Address):
        return not any(address in block for block in _NOT_PUBLIC_V4)
    inner = embedded_ipv4(address)
    if inner is not None:
        return address_is_public(inner)
    return address in _GLOBAL_UNICAST_V6 and not any(address in b for b in _NOT_PUBLIC_V6)


def parse_networks(blocks: Iterable[str | Network]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(block) for block in blocks)


def address_allowed(address: Address, extra: Iterable[Network] = ()) -> bool:
    """Public, or in one of the ``extra`` networks the operator trusts (tests: loopback)."""
    return address_is_public(address) or any(
        address.version == net.version and address in net for net in extra
    )


def resolve(host: str, port: int) -> list[Address]:
    """Every address ``host`` resolves to for a TCP connection, in the resolver's order.
    (An address literal in any spelling the C library accepts, 2130706433 or 0x7f.1, comes
    back as the address it means: the check sees what a connection would reach.)"""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
    addresses: list[Address] = []
    for family, _type, _proto, _name, sockaddr in infos:
        if family not in (socket.AF_INET, socket.AF_INET6):
            continue
        address = ipaddress.ip_address(str(sockaddr[0]).partition("%")[0])
        if address not in addresses:
            addresses.append(address)
    return addresses


def checked_addresses(host: str, port: int, extra: Iterable[Network] = ()) -> list[Address]:
    """The addresses to connect to for ``host``, once every one of them is allowed. A name
    with any non-public address is refused whole: a real service has no reason to publish
    one, and which of them a connection would end up on is not ours to predict."""
    try:
        addresses = resolve(host, port)
    except (OSError, UnicodeError) as exc:  # socket.gaierror is an OSError
        raise requests.ConnectionError(f"cannot resolve {host!r}: {exc}") from exc
    if not addresses:
        raise requests.ConnectionError(f"{host!r} has no address")
    extra = tuple(extra)
    refused = [a for a in addresses if not address_allowed(a, extra)]
    if refused:
        raise OutboundRefused(f"{host!r} resolves to a non-public address ({refused[0]})")
    return addresses


# --- The transport -------------------------------------------------------------------------


def _connect(conn: HTTPConnection) -> socket.socket:
    """A TCP connection to the connection's host, which the adapter made the address it
    checked. No name resolution happens here, so nothing can swap the address."""
    try:
        address = ipaddress.ip_address(conn.host.strip("[]"))
    except ValueError:
        # Only GuardedAdapter.send makes these pools, with a checked address for host: a name
        # here means some other path got a connection, and it fails closed.
        raise NewConnectionError(conn, f"{conn.host!r} is not a checked address") from None
    family = socket.AF_INET6 if address.version == 6 else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        for option in conn.socket_options or ():
            sock.setsockopt(*option)
        if conn.timeout is None or isinstance(conn.timeout, int | float):
            sock.settimeout(conn.timeout)
        if conn.source_address:
            sock.bind(conn.source_address)
        sock.connect((str(address), conn.port))
    except TimeoutError as exc:
        sock.close()
        raise ConnectTimeoutError(conn, f"Connection to {address} timed out.") from exc
    except OSError as exc:
        sock.close()
        raise NewConnectionError(conn, f"Failed to establish a new connection: {exc}") from exc
    return sock


class _PinnedHTTPConnection(HTTPConnection):
    def _new_conn(self) -> socket.socket:
        return _connect(self)


class _PinnedHTTPSConnection(HTTPSConnection):
    def _new_conn(self) -> socket.socket:
        return _connect(self)


class _PinnedHTTPConnectionPool(HTTPConnectionPool):
    ConnectionCls = _PinnedHTTPConnection


class _PinnedHTTPSConnectionPool(HTTPSConnectionPool):
    ConnectionCls = _PinnedHTTPSConnection


_DEFAULT_PORTS = {"http": 80, "https": 443}


def _nothing_sent(exc: requests.ConnectionError) -> bool:
    """Whether the request failed while connecting (so another address may be tried)."""
    reason = getattr(exc.args[0] if exc.args else None, "reason", None)
    # urllib3's NewConnectionError is a ConnectTimeoutError too.
    return isinstance(reason, ConnectTimeoutError)


class GuardedAdapter(HTTPAdapter):
    """A transport adapter that connects only to checked addresses (see the module's doc).

    ``allowed_networks``: networks let through besides the public internet; ``None`` reads
    ``settings.OUTBOUND_ALLOWED_NETWORKS`` at each request (empty by default)."""

    def __init__(self, *, allowed_networks: Iterable[str | Network] | None = None) -> None:
        self._allowed = None if allowed_networks is None else parse_networks(allowed_networks)
        # The address the request being sent goes to, per thread (a session may be shared).
        self._target = threading.local()
        super().__init__(max_retries=0)

    def allowed_networks(self) -> tuple[Network, ...]:
        if self._allowed is not None:
            return self._allowed
        return parse_networks(getattr(settings, "OUTBOUND_ALLOWED_NETWORKS", ()))

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        # The pools' hosts are checked addresses; their connections connect to them as they
        # are, without resolving anything.
        self.poolmanager.pool_classes_by_scheme = {
            "http": _PinnedHTTPConnectionPool,
            "https": _PinnedHTTPSConnectionPool,
        }

    def proxy_manager_for(self, proxy: str, **proxy_kwargs: Any) -> Any:
        # A proxy would resolve the name itself, past the check.
        raise OutboundRefused("no proxy for requests to user-supplied addresses")

    def send(
        self,
        request: requests.PreparedRequest,
        stream: bool = False,
        timeout: Any = None,
        verify: Any = True,
        cert: Any = None,
        proxies: Mapping[str, str] | None = None,
    ) -> requests.Response:
        url = request.url or ""
        if proxies and select_proxy(url, dict(proxies)):
            raise OutboundRefused("no proxy for requests to user-supplied addresses")
        split = urlsplit(url)
        if split.username is not None or split.password is not None:
            raise OutboundRefused("no credentials in a URL to a user-supplied address")
        try:
            scheme, host, port = split.scheme.lower(), split.hostname, split.port
        except ValueError as exc:  # a port out of range
            raise InvalidURL(exc, request=request) from exc
        if scheme not in _DEFAULT_PORTS or not host:
            raise InvalidURL(f"not an http(s) URL with a host: {url!r}", request=request)
        addresses = checked_addresses(host, port or _DEFAULT_PORTS[scheme], self.allowed_networks())
        # The pool's host is an address, which urllib3 would write into Host: the name goes
        # there instead, as a direct connection would have it.
        if "Host" not in request.headers:
            request.headers["Host"] = host_header(url)
        # Each address in the resolver's order until one takes the connection, as urllib3
        # itself would do; a failure after connecting is final (the request may have left).
        for index, address in enumerate(addresses):
            self._target.address = address
            try:
                return super().send(request, stream, timeout, verify, cert, None)
            except requests.ConnectionError as exc:
                if index == len(addresses) - 1 or not _nothing_sent(exc):
                    raise
            finally:
                self._target.address = None
        raise AssertionError("unreachable")  # pragma: no cover

    def get_connection_with_tls_context(
        self,
        request: requests.PreparedRequest,
        verify: Any,
        proxies: Mapping[str, str] | None = None,
        cert: Any = None,
    ) -> HTTPConnectionPool:
        address = getattr(self._target, "address", None)
        if address is None:  # only send() may get a connection: it checked the address
            raise OutboundRefused("no address was checked for this request")
        try:
            host_params, pool_kwargs = self.build_connection_pool_key_attributes(
                request, verify, cert
            )
        except ValueError as exc:
            raise InvalidURL(exc, request=request) from exc
        scheme = host_params["scheme"]
        if scheme == "https":
            # SNI and certificate verification are for the name, the socket for the address.
            pool_kwargs["server_hostname"] = host_params["host"]
        return self.poolmanager.connection_from_host(
            host=str(address),
            port=host_params["port"] or _DEFAULT_PORTS[scheme],
            scheme=scheme,
            pool_kwargs=pool_kwargs,
        )


def host_header(url: str) -> str:
    split = urlsplit(url)
    host = split.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    port = split.port
    if port is None or port == _DEFAULT_PORTS.get(split.scheme):
        return host
    return f"{host}:{port}"


class GuardedSession(requests.Session):
    """A session whose every request goes through ``GuardedAdapter`` and follows no redirect:
    a 3xx comes back as the response (the place it points to was never checked)."""

    def __init__(self, *, allowed_networks: Iterable[str | Network] | None = None) -> None:
        super().__init__()
        # No proxy, CA bundle or .netrc credentials from the environment: a proxy would
        # resolve past the check, and credentials are not for a stranger's host.
        self.trust_env = False
        adapter = GuardedAdapter(allowed_networks=allowed_networks)
        self.mount("https://", adapter)
        self.mount("http://", adapter)

    def send(self, request: requests.PreparedRequest, **kwargs: Any) -> requests.Response:
        kwargs["allow_redirects"] = False
        return super().send(request, **kwargs)

    def get_redirect_target(self, resp: requests.Response) -> str | None:
        return None  # not even as the response's `next`


def guarded_session(*, allowed_networks: Iterable[str | Network] | None = None) -> GuardedSession:
    """A session for requests to URLs a user supplied (see the module's doc)."""
    return GuardedSession(allowed_networks=allowed_networks)


# --- Which URLs may be registered ------------------------------------------------------------

# A DNS label: letters (lower case, as a URL serializer writes a host), digits and hyphens,
# no hyphen at either end, at most 63 characters.
_LABEL = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
# The last label starts with a letter (every top-level domain does): that is what keeps out
# every spelling of an IPv4 address (127.0.0.1, 127.1, 2130706433, 0x7f.1, 0177.0.0.1), and
# the host charset keeps out bracketed IPv6 and user information (`@`).
_TLD = "[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?"
# Names that are never a public service: the loopback name and the suffixes private networks
# use (RFC 6761, RFC 6762, RFC 8375, ICANN's name-collision list). The resolution check at
# send time refuses the rest of what resolves inward.
LOCAL_NAMES = (
    "localhost",
    "localdomain",
    "local",
    "internal",
    "intranet",
    "lan",
    "home",
    "corp",
    "arpa",
    "invalid",
)
# Path, query and fragment: printable ASCII without the backslash (which some URL parsers read
# as a slash, so that two parsers could disagree about where the host ends).
_REST = r"[/?#][!-\[\]-~]*"


def _host_alternatives(hosts: Iterable[str]) -> str:
    """``push.example.net`` exactly; ``.example.net`` that name and any name under it."""
    parts = []
    for entry in hosts:
        name = entry.strip().lower()
        if not re.fullmatch(r"\.?[a-z0-9.-]+", name):
            raise ValueError(f"not a host name or .suffix: {entry!r}")
        escaped = re.escape(name.lstrip(".")).replace("\\-", "-")
        parts.append(f"(?:{_LABEL}\\.)*{escaped}" if name.startswith(".") else escaped)
    return "|".join(parts)


def url_pattern(
    *, schemes: Iterable[str] = ("https",), ports: Iterable[int] = (443,), hosts: Iterable[str] = ()
) -> str:
    """The regular expression (Python's and ECMA-262's alike, for the OpenAPI ``pattern``) of
    a URL a user may give us to call: one of ``schemes``, a DNS name (``hosts``, when given:
    exact names or ``.suffix``), no user information, an explicit port only from ``ports``,
    nothing but printable ASCII. Match it whole (``re.fullmatch``): Python's ``$`` also matches
    before a final newline."""
    scheme = "|".join(re.escape(s) for s in schemes)
    port = "|".join(str(int(p)) for p in ports)
    local = "|".join(LOCAL_NAMES)
    allowed = _host_alternatives(hosts)
    host = f"(?:{allowed})" if allowed else f"(?:{_LABEL}\\.)+{_TLD}"
    return (
        f"^(?:{scheme})://"
        # at most 253 characters of host name, and none of the local names
        f"(?=[a-z0-9.-]{{1,253}}(?:[:/?#]|$))"
        f"(?!(?:{_LABEL}\\.)*(?:{local})(?:[:/?#]|$))"
        f"{host}" + (f"(?::(?:{port}))?" if port else "") + f"(?:{_REST})?$"
    )
