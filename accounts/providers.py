"""Verifying the ID tokens of Sign in with Apple and Google.

An app signs the player in with the provider, which hands it an ID token: a JWT (RS256) that
names the player (``sub``) for our app (``aud``), signed with one of the keys the provider
publishes as a JWKS. ``id_token_verify`` checks, in this order: the header (RS256 and a key
id), the signature against the provider's key of that id, then the claims: issuer, audience
(one of the operator's client ids), expiry, and the nonce. Only then does it trust a claim.

The keys are fetched and cached here, per process (``KeySet``):

- through the outbound guard (``core.outbound``): the URL is the operator's, but the same
  transport refuses private addresses, redirects and proxies, which an operator's typo or a
  poisoned resolver could otherwise lead us to; tests add their loopback key server with
  ``OUTBOUND_ALLOWED_NETWORKS``;
- with a connect and a read timeout, a deadline for the whole body and a size cap, so a key
  server that is slow or sends forever costs one request a few seconds, never a hang;
- kept for the ``Cache-Control: max-age`` the provider sends (within bounds); an unknown key
  id (the provider rotated its keys) refetches at once, but at most once per
  ``REFETCH_SECONDS`` per key set, so tokens with made-up key ids cannot make us hammer the
  provider; a failed fetch is not retried within that interval either;
- when the key server cannot be reached, keys fetched earlier keep working (up to
  ``STALE_SECONDS``); with none, the answer is ``503 provider_unavailable``.

Verification fetches over the network, so it runs before any write transaction opens
(``accounts.api.identities``).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import jwt
import requests
from django.conf import settings

from accounts.errors import (
    IdTokenExpired,
    InvalidIdToken,
    NonceMismatch,
    ProviderNotConfigured,
    ProviderUnavailable,
    WrongAudience,
)
from accounts.models import IdentityProvider
from core.outbound import guarded_session

log = logging.getLogger(__name__)

ALGORITHM = "RS256"  # what both providers sign with; nothing else is accepted
LEEWAY_SECONDS = 60  # clock skew allowed on exp and iat
CONNECT_TIMEOUT_SECONDS = 3.0
READ_TIMEOUT_SECONDS = 5.0
FETCH_DEADLINE_SECONDS = 8.0  # the whole body, however slowly it drips
MAX_JWKS_BYTES = 256 * 1024  # a JWKS is a few kilobytes
# How long fetched keys are used before they are fetched again: the provider's max-age,
# within these bounds (Google sends hours; Apple sends none).
DEFAULT_MAX_AGE_SECONDS = 3600.0
MIN_MAX_AGE_SECONDS = 300.0
MAX_MAX_AGE_SECONDS = 86400.0
# At most one fetch per key set per this many seconds: an unknown key id or a failed fetch
# waits for it.
REFETCH_SECONDS = 30.0
# Keys past their age still verify for this long while the key server cannot be reached.
STALE_SECONDS = 86400.0

_MAX_AGE = re.compile(r"max-age\s*=\s*(\d+)", re.IGNORECASE)

# Read through the module, so a test can move time (tests/accounts/test_provider_sign_in.py).
monotonic: Callable[[], float] = time.monotonic


@dataclass(frozen=True)
class Provider:
    name: str
    issuers: tuple[str, ...]
    client_ids_setting: str
    jwks_url_setting: str
    # Apple puts the SHA-256 (lowercase hex) of the app's raw nonce in the token; Google the
    # raw nonce itself. The app sends us the raw nonce either way.
    hashes_nonce: bool

    def client_ids(self) -> list[str]:
        return [str(c) for c in getattr(settings, self.client_ids_setting, []) if c]

    def jwks_url(self) -> str:
        return str(getattr(settings, self.jwks_url_setting))


PROVIDERS = {
    IdentityProvider.APPLE.value: Provider(
        name=IdentityProvider.APPLE.value,
        issuers=("https://appleid.apple.com",),
        client_ids_setting="AUTH_APPLE_CLIENT_IDS",
        jwks_url_setting="AUTH_APPLE_JWKS_URL",
        hashes_nonce=True,
    ),
    IdentityProvider.GOOGLE.value: Provider(
        name=IdentityProvider.GOOGLE.value,
        issuers=("https://accounts.google.com", "accounts.google.com"),
        client_ids_setting="AUTH_GOOGLE_CLIENT_IDS",
        jwks_url_setting="AUTH_GOOGLE_JWKS_URL",
        hashes_nonce=False,
    ),
}


@dataclass(frozen=True)
class VerifiedIdentity:
    """What a verified ID token says about the player."""

    provider: str
    subject: str
    email: str  # verified by the provider, else blank
    name: str  # the name the provider gives (Google), else blank
    expires_at: datetime
    # SHA-256 of the token's nonce claim, to be remembered as used until ``expires_at``;
    # None when the token carries no nonce.
    nonce_digest: str | None


# --- The keys ------------------------------------------------------------------------------


class KeySet:
    """One provider's published keys, as this process last fetched them."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._keys: dict[str, jwt.PyJWK] = {}
        self._fetched_at: float | None = None  # when the keys above were fetched
        self._max_age = DEFAULT_MAX_AGE_SECONDS
        self._last_attempt: float | None = None  # the latest fetch, whatever its outcome
        self._failing = False  # whether that fetch failed
        # One fetch at a time per key set; the others wait for it (bounded by its timeouts)
        # and use what it got.
        self._lock = threading.Lock()
        self.fetches = 0  # attempts, for tests and logs

    def key(self, kid: str) -> jwt.PyJWK:
        with self._lock:
            now = monotonic()
            fresh = self._fetched_at is not None and now - self._fetched_at < self._max_age
            if not fresh or kid not in self._keys:
                self._refresh(now)
            key = self._keys.get(kid)
            if key is None and self._failing:
                # Perhaps a key the provider published since: we cannot tell.
                wait = REFETCH_SECONDS - (now - (self._last_attempt or now))
                raise ProviderUnavailable(int(wait) + 1)
        if key is None:
            raise InvalidIdToken()
        return key

    def _refresh(self, now: float) -> None:
        """Fetch the keys again, unless a fetch was tried less than REFETCH_SECONDS ago. On
        failure keep the keys fetched before while they are usable (STALE_SECONDS)."""
        if self._last_attempt is not None and now - self._last_attempt < REFETCH_SECONDS:
            return
        self._last_attempt = now
        self.fetches += 1
        try:
            keys, max_age = _fetch(self.url)
        except (requests.RequestException, ValueError, RecursionError) as exc:
            log.warning("could not fetch the keys at %s: %s", self.url, exc)
            self._failing = True
            stale = self._fetched_at is None or (
                now - self._fetched_at >= self._max_age + STALE_SECONDS
            )
            if stale:
                self._keys = {}
            return
        self._keys, self._max_age, self._fetched_at = keys, max_age, monotonic()
        self._failing = False


def _fetch(url: str) -> tuple[dict[str, jwt.PyJWK], float]:
    """The RS256 signing keys of the JWKS at ``url`` by key id, and how long to keep them.
    ``ValueError`` for an answer that is not a JWKS."""
    deadline = monotonic() + FETCH_DEADLINE_SECONDS
    with (
        guarded_session() as session,
        session.get(
            url,
            timeout=(CONNECT_TIMEOUT_SECONDS, READ_TIMEOUT_SECONDS),
            stream=True,
            headers={"Accept": "application/json"},
        ) as response,
    ):
        if response.status_code != 200:
            raise ValueError(f"status {response.status_code}")
        body = b""
        for chunk in response.iter_content(16384):
            body += chunk
            if len(body) > MAX_JWKS_BYTES:
                raise ValueError("the key set is too large")
            if monotonic() > deadline:
                raise ValueError("the key set took too long")
        cache_control = response.headers.get("Cache-Control", "")
    document = json.loads(body)
    entries = document.get("keys") if isinstance(document, dict) else None
    if not isinstance(entries, list):
        raise ValueError("no keys")
    keys: dict[str, jwt.PyJWK] = {}
    for entry in entries:
        if not isinstance(entry, dict) or entry.get("kty") != "RSA":
            continue
        kid = entry.get("kid")
        if not isinstance(kid, str) or entry.get("use", "sig") != "sig":
            continue
        if entry.get("alg", ALGORITHM) != ALGORITHM:
            continue
        try:
            keys[kid] = jwt.PyJWK(entry, algorithm=ALGORITHM)
        except jwt.PyJWTError:
            continue  # one malformed key spoils none of the others
    if not keys:
        raise ValueError("no RS256 signing key")
    match = _MAX_AGE.search(cache_control)
    max_age = float(match.group(1)) if match else DEFAULT_MAX_AGE_SECONDS
    return keys, min(max(max_age, MIN_MAX_AGE_SECONDS), MAX_MAX_AGE_SECONDS)


_key_sets: dict[str, KeySet] = {}
_key_sets_lock = threading.Lock()


def key_set(url: str) -> KeySet:
    with _key_sets_lock:
        found = _key_sets.get(url)
        if found is None:
            found = _key_sets[url] = KeySet(url)
        return found


def key_sets_reset() -> None:
    """Forget every fetched key (tests)."""
    with _key_sets_lock:
        _key_sets.clear()


# --- The token -------------------------------------------------------------------------------


def provider_for(name: str) -> Provider:
    """The provider, once the operator configured it (at least one client id)."""
    provider = PROVIDERS[name]
    if not provider.client_ids():
        raise ProviderNotConfigured()
    return provider


def id_token_verify(provider: Provider, token: str, nonce: str | None) -> VerifiedIdentity:
    """The identity ``token`` proves, or the refusal: ``InvalidIdToken``, ``IdTokenExpired``,
    ``WrongAudience``, ``NonceMismatch``, ``ProviderUnavailable``. Fetches keys: never call it
    inside a transaction. Whether the nonce was used before is the caller's to check, in its
    transaction (``VerifiedIdentity.nonce_digest``)."""
    try:
        header = jwt.get_unverified_header(token)
    except jwt.PyJWTError:
        raise InvalidIdToken() from None
    kid = header.get("kid")
    if header.get("alg") != ALGORITHM or not isinstance(kid, str) or not kid:
        raise InvalidIdToken()
    key = key_set(provider.jwks_url()).key(kid)
    try:
        claims = jwt.decode(
            token,
            key=key,
            algorithms=[ALGORITHM],
            audience=provider.client_ids(),
            issuer=provider.issuers,
            leeway=LEEWAY_SECONDS,
            options={"require": ["iss", "aud", "sub", "exp", "iat"]},
        )
    except jwt.ExpiredSignatureError:
        raise IdTokenExpired() from None
    except jwt.InvalidAudienceError:
        raise WrongAudience() from None
    except jwt.PyJWTError:
        raise InvalidIdToken() from None
    subject, name = claims["sub"], claims.get("name")
    if not isinstance(subject, str) or not subject or len(subject) > 255:
        raise InvalidIdToken()
    return VerifiedIdentity(
        provider=provider.name,
        subject=subject,
        email=_verified_email(claims),
        name=name if isinstance(name, str) else "",
        expires_at=datetime.fromtimestamp(int(claims["exp"]) + LEEWAY_SECONDS, tz=UTC),
        nonce_digest=_nonce_check(provider, claims, nonce),
    )


def _truthy(value: object) -> bool:
    # Apple writes its booleans as the strings "true" and "false".
    return value is True or value == "true"


def _verified_email(claims: dict[str, Any]) -> str:
    email = claims.get("email")
    if isinstance(email, str) and _truthy(claims.get("email_verified")) and len(email) <= 254:
        return email
    return ""


def _nonce_check(provider: Provider, claims: dict[str, Any], nonce: str | None) -> str | None:
    """The digest to remember of the token's nonce, once the nonce sent matches it.

    A token that carries a nonce needs it sent (else a stolen token would work without it).
    A nonce sent for a token without one is refused too, except from Apple on a platform
    that says it cannot carry one (``nonce_supported`` false)."""
    claimed = claims.get("nonce")
    if claimed is None:
        if nonce is None or not _truthy(claims.get("nonce_supported", True)):
            return None
        raise NonceMismatch()
    if nonce is None or not isinstance(claimed, str):
        raise NonceMismatch()
    expected = hashlib.sha256(nonce.encode()).hexdigest() if provider.hashes_nonce else nonce
    if not hmac.compare_digest(expected.encode(), claimed.encode()):
        raise NonceMismatch()
    return hashlib.sha256(claimed.encode()).hexdigest()
