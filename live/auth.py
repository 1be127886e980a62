"""Who is connecting: the same hashed bearer tokens as ``accounts.authentication``, or a
single-use ticket (browsers cannot set headers on a WebSocket), and the close code if neither.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import parse_qsl

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import AuthToken, Sanction, User, hash_token
from live.models import WsTicket

BAD_REQUEST = 4400
NOT_AUTHENTICATED = 4401
SANCTIONED = 4403
NOT_VISIBLE = 4404
TOO_MANY = 4429
# RFC 6455's "Internal Error": the server failed while serving the stream (a bug, or the
# database gone for longer than a pass's retries). Nothing is wrong with the request: reconnect
# after a pause, with ``since`` on a match stream.
INTERNAL_ERROR = 1011


@dataclass(frozen=True)
class Caller:
    user: User
    token_id: int


# --- The query string ------------------------------------------------------------------------

# Match.version is a PositiveIntegerField: no version is larger, so no ``since`` need be.
MAX_VERSION = 2**31 - 1
# Far more than ``since`` and a ticket need; the bound on what is parsed at all.
QUERY_MAX_BYTES = 512
# Each parameter a stream may take, and the form of its value once percent-decoded: ASCII
# only (``[0-9]``, not ``\d`` or ``str.isdigit``, which take "²", "①" or Arabic-Indic digits),
# never empty, bounded. A ticket is ``secrets.token_urlsafe(32)`` (43 characters); the bound
# leaves room.
_FORMS = {
    "since": re.compile(r"[0-9]{1,10}"),
    "ticket": re.compile(r"[A-Za-z0-9_-]{1,64}"),
}


class BadQuery(ValueError):
    """The upgrade's query string is not one the stream takes (close code 4400)."""


@dataclass(frozen=True)
class Query:
    """A stream's parameters, read and checked: ``since`` 0 when absent."""

    since: int = 0
    ticket: str | None = None


def query_read(scope: Mapping[str, Any], names: Collection[str]) -> Query:
    """The parameters of the upgrade, each one of ``names`` at most once, each value of its
    form (``_FORMS``), ``since`` at most ``MAX_VERSION``. Anything else raises BadQuery: an
    unknown or repeated name, an empty value (``?since=`` or ``?since``, present, so not
    read as absent), bytes that are not ASCII, percent-escapes that are not UTF-8, a string
    over ``QUERY_MAX_BYTES``. Strict like the request bodies (an unknown field is 400): a
    misspelt ``sinec`` fails loudly instead of silently streaming everything."""
    raw = scope.get("query_string") or b""
    if not isinstance(raw, bytes) or len(raw) > QUERY_MAX_BYTES:
        raise BadQuery
    try:
        pairs = parse_qsl(raw.decode("ascii"), keep_blank_values=True, errors="strict")
    except ValueError:  # UnicodeDecodeError included
        raise BadQuery from None
    found: dict[str, str] = {}
    for name, value in pairs:
        if name not in names or name in found or not _FORMS[name].fullmatch(value):
            raise BadQuery
        found[name] = value
    since = int(found.get("since", "0"))
    if since > MAX_VERSION:
        raise BadQuery
    return Query(since=since, ticket=found.get("ticket"))


def _bearer(scope: Mapping[str, Any]) -> str | None:
    headers = scope.get("headers") or []
    assert isinstance(headers, list)
    for name, value in headers:
        if name == b"authorization":
            parts = value.decode("latin-1").split()
            if len(parts) == 2 and parts[0].lower() == "bearer":
                return parts[1]
            return ""
    return None


def standing(token_id: int) -> int | None:
    """None while the token may stream; else the close code (revoked, inactive, sanctioned).
    Checked at connect and again while the connection lasts, so a logout or a sanction ends
    it."""
    token = (
        AuthToken.objects.select_related("user")
        .filter(pk=token_id, revoked_at__isnull=True)
        .only("id", "user__id", "user__is_active")
        .first()
    )
    if token is None or not token.user.is_active:
        return NOT_AUTHENTICATED
    if Sanction.objects.active().filter(user_id=token.user_id).exists():
        return SANCTIONED
    return None


def standings(token_ids: set[int]) -> dict[int, int]:
    """``standing`` for many open connections in a few queries: the close code of each token
    that may no longer stream (absent: still fine)."""
    refused: dict[int, int] = {}
    ids = sorted(token_ids)
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        rows = AuthToken.objects.filter(pk__in=chunk).values_list(
            "pk", "revoked_at", "user_id", "user__is_active"
        )
        owners: dict[int, list[int]] = {}
        found = set()
        for pk, revoked_at, user_id, active in rows:
            found.add(pk)
            if revoked_at is not None or not active:
                refused[pk] = NOT_AUTHENTICATED
            else:
                owners.setdefault(user_id, []).append(pk)
        refused.update(dict.fromkeys(set(chunk) - found, NOT_AUTHENTICATED))
        barred = Sanction.objects.active().filter(user_id__in=list(owners))
        for user_id in set(barred.values_list("user_id", flat=True)):
            refused.update(dict.fromkeys(owners[user_id], SANCTIONED))
    return refused


def authenticate(scope: Mapping[str, Any], ticket: str | None = None) -> Caller | int:
    """The caller of a WebSocket upgrade (its bearer token, else ``ticket``, the query's), or
    the close code to answer with."""
    raw = _bearer(scope)
    token: AuthToken | None = None
    if raw:
        token = (
            AuthToken.objects.select_related("user")
            .filter(key_hash=hash_token(raw), revoked_at__isnull=True)
            .first()
        )
    elif raw is None and ticket:
        token = ticket_redeem(ticket)
    if token is None:
        return NOT_AUTHENTICATED
    code = standing(token.pk)
    if code is not None:
        return code
    return Caller(user=token.user, token_id=token.pk)


# --- Tickets ---------------------------------------------------------------------------------


def ticket_issue(*, token: AuthToken) -> tuple[str, datetime]:
    """A new single-use ticket for ``token``'s user, valid ``LIVE["TICKET_SECONDS"]``."""
    raw = AuthToken.new_raw_key()
    expires_at = timezone.now() + timedelta(seconds=float(settings.LIVE["TICKET_SECONDS"]))
    WsTicket.objects.create(
        key_hash=hash_token(raw), token=token, user_id=token.user_id, expires_at=expires_at
    )
    # Spent and expired tickets have no use: keep the table small as tickets are issued.
    WsTicket.objects.filter(expires_at__lt=timezone.now() - timedelta(hours=1)).delete()
    return raw, expires_at


def ticket_redeem(raw: str) -> AuthToken | None:
    """The token a valid ticket was issued for, spending the ticket; None if unknown, spent or
    expired. The conditional update makes a race between two upgrades spend it once."""
    now = timezone.now()
    with transaction.atomic():
        spent = WsTicket.objects.filter(
            key_hash=hash_token(raw), used_at__isnull=True, expires_at__gt=now
        ).update(used_at=now)
        if spent != 1:
            return None
        ticket = WsTicket.objects.select_related("token__user").get(key_hash=hash_token(raw))
    return ticket.token if ticket.token.revoked_at is None else None
