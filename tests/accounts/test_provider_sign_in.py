"""Sign in with Apple and Google (POST /auth/apple, /auth/google), linking and unlinking
(DELETE /me/identities/{provider}), against keys of the test's own served by a key server on
127.0.0.1: every check of the token (signature, issuer, audience, expiry, nonce and its
replay, unknown key ids with their bounded refetch, the key server down or slow), the
personas on every new endpoint, refusals that change nothing, and deletion."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from functools import cache, partial
from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIClient

from accounts import providers
from accounts.models import AuthToken, Identity, Sanction, UsedNonce, User
from tests.support.api import API, assert_problem
from tests.support.drills import race
from tests.support.jwks import (
    APPLE_CLIENT,
    GOOGLE_CLIENT,
    KeyServer,
    SigningKey,
    apple_nonce_claim,
    id_token,
    key_server,
)
from tests.support.players import PASSWORD, Player

ME = f"{API}/me"


@cache
def signing_key(kid: str) -> SigningKey:
    return SigningKey(kid)  # RSA keys are slow to make: one per kid for the whole module


@pytest.fixture
def keys(settings: Any) -> Iterator[KeyServer]:
    """Apple publishes key "a1", Google "g1"; the settings point at the local key server."""
    providers.key_sets_reset()
    state = KeyServer(published={"apple": [signing_key("a1")], "google": [signing_key("g1")]})
    with key_server(state) as server:
        settings.AUTH_APPLE_CLIENT_IDS = [APPLE_CLIENT, "com.example.baloot.web"]
        settings.AUTH_GOOGLE_CLIENT_IDS = [GOOGLE_CLIENT]
        settings.AUTH_APPLE_JWKS_URL = server.url("apple")
        settings.AUTH_GOOGLE_JWKS_URL = server.url("google")
        settings.OUTBOUND_ALLOWED_NETWORKS = ["127.0.0.0/8"]
        yield server
    providers.key_sets_reset()


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The key cache's clock, moved by hand: ``clock[0] += seconds``."""
    now = [1000.0]
    monkeypatch.setattr(providers, "monotonic", lambda: now[0])
    return now


def apple(key: str = "a1", **claims: Any) -> str:
    return id_token("apple", signing_key(key), **claims)


def google(key: str = "g1", **claims: Any) -> str:
    return id_token("google", signing_key(key), **claims)


def sign_in(client: APIClient, provider: str, token: str, **body: Any) -> Any:
    return client.post(f"{API}/auth/{provider}", {"id_token": token, **body}, format="json")


def counts() -> tuple[int, ...]:
    """What a sign-in or a link can change."""
    return (
        User.objects.count(),
        Identity.objects.count(),
        AuthToken.objects.count(),
        UsedNonce.objects.count(),
        *Identity.objects.order_by("pk").values_list("user_id", flat=True),
    )


def authed(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


# --- Signing in ------------------------------------------------------------------------------


def test_a_new_apple_identity_creates_an_account_without_a_password(
    db: None, keys: KeyServer, anon: APIClient
) -> None:
    token = apple(nonce="n-1", email="amal@privaterelay.appleid.com", email_verified="true")

    response = sign_in(anon, "apple", token, nonce="n-1", display_name="  Amal  Salem ")

    assert response.status_code == 201, response.content
    body = response.json()
    assert body["created"] is True and body["token"]
    assert body["identity"]["provider"] == "apple"
    assert body["identity"]["email"] == "amal@privaterelay.appleid.com"
    user = User.objects.get(pk=body["user"]["id"])
    assert user.display_name == "Amal Salem"  # cleaned as display names are
    assert user.username.startswith("player-") and not user.has_usable_password()
    assert user.email == ""  # the provider's address stays on the identity
    me = authed(body["token"]).get(ME)
    assert me.status_code == 200, me.content
    assert [(i["provider"], i["email"]) for i in me.json()["identities"]] == [
        ("apple", "amal@privaterelay.appleid.com")
    ]


def test_signing_in_again_reaches_the_same_account_with_a_new_token(
    db: None, keys: KeyServer, anon: APIClient
) -> None:
    first = sign_in(anon, "apple", apple(nonce="n-1"), nonce="n-1").json()

    again = sign_in(anon, "apple", apple(nonce="n-2"), nonce="n-2", display_name="Someone else")

    assert again.status_code == 200, again.content
    assert again.json()["created"] is False
    assert again.json()["user"] == first["user"]  # the name given is for new accounts only
    assert again.json()["token"] != first["token"]
    assert keys.fetches("apple") == 1  # the keys were cached
    assert User.objects.get(pk=first["user"]["id"]).last_login is not None


def test_google_gives_the_name_and_the_raw_nonce_under_either_issuer(
    db: None, keys: KeyServer, anon: APIClient
) -> None:
    with_scheme = google(
        sub="g-1", nonce="raw-1", name="Noura", email="n@example.com", email_verified=True
    )
    without = google(sub="g-2", nonce="raw-2", iss="accounts.google.com", email="x@example.com")

    first = sign_in(anon, "google", with_scheme, nonce="raw-1")
    second = sign_in(anon, "google", without, nonce="raw-2")

    assert first.status_code == 201, first.content
    assert first.json()["user"]["display_name"] == "Noura"
    assert first.json()["identity"]["email"] == "n@example.com"
    assert second.status_code == 201, second.content
    assert second.json()["identity"]["email"] is None  # not verified: not kept


@pytest.mark.parametrize("name", ["Easy Bot", "deleted-12", "\u200b", ""])
def test_a_name_the_rules_refuse_is_replaced_by_a_generated_one(
    db: None, keys: KeyServer, anon: APIClient, name: str
) -> None:
    response = sign_in(anon, "google", google(name=name))

    assert response.status_code == 201, response.content
    assert response.json()["user"]["display_name"].startswith("Player ")


def test_a_token_for_the_second_client_id_is_accepted(
    db: None, keys: KeyServer, anon: APIClient
) -> None:
    response = sign_in(anon, "apple", apple(aud="com.example.baloot.web"))

    assert response.status_code == 201, response.content


# --- Refusals of the token -------------------------------------------------------------------


def _hs256(provider: str) -> str:
    import jwt

    now = int(time.time())
    claims = {"iss": "https://appleid.apple.com", "aud": APPLE_CLIENT, "sub": "x"}
    return jwt.encode(
        {**claims, "iat": now, "exp": now + 600}, "secret" * 8, "HS256", headers={"kid": "a1"}
    )


REFUSED: dict[str, tuple[Callable[[], str], dict[str, Any], str]] = {
    # what the token is: (the token, the body's extra fields, the code)
    "not a JWT": (lambda: "not.a.token", {}, "invalid_id_token"),
    "signed by another key under a published kid": (
        lambda: id_token("apple", signing_key("other"), headers={"kid": "a1"}),
        {},
        "invalid_id_token",
    ),
    "HS256 with the key id": (lambda: _hs256("apple"), {}, "invalid_id_token"),
    "another issuer": (lambda: apple(iss="https://accounts.google.com"), {}, "invalid_id_token"),
    "Google's token at Apple's endpoint": (lambda: google(), {}, "invalid_id_token"),
    "no subject": (lambda: apple(sub=""), {}, "invalid_id_token"),
    "wrong audience": (lambda: apple(aud="com.someone.else"), {}, "wrong_audience"),
    "expired": (lambda: apple(lifetime=-120), {}, "id_token_expired"),
    "a nonce that is not the token's": (
        lambda: apple(nonce="n-1"),
        {"nonce": "n-2"},
        "nonce_mismatch",
    ),
    "Apple's hash sent as the nonce": (
        lambda: apple(nonce="n-1"),
        {"nonce": apple_nonce_claim("n-1")},
        "nonce_mismatch",
    ),
    "the token's nonce not sent": (lambda: apple(nonce="n-1"), {}, "nonce_mismatch"),
    "a nonce sent for a token without one": (lambda: apple(), {"nonce": "n-1"}, "nonce_mismatch"),
}


@pytest.mark.parametrize("case", REFUSED)
def test_a_refused_token_changes_nothing(
    db: None, keys: KeyServer, anon: APIClient, case: str
) -> None:
    make, extra, code = REFUSED[case]
    before = counts()

    response = sign_in(anon, "apple", make(), **extra)

    assert_problem(response, 401, code)
    assert counts() == before


def test_apple_without_nonce_support_signs_in_without_the_nonce(
    db: None, keys: KeyServer, anon: APIClient
) -> None:
    response = sign_in(anon, "apple", apple(nonce_supported=False), nonce="n-1")

    assert response.status_code == 201, response.content


def test_a_replayed_nonce_is_refused_and_changes_nothing(
    db: None, keys: KeyServer, anon: APIClient
) -> None:
    token = google(nonce="once")
    assert sign_in(anon, "google", token, nonce="once").status_code == 201
    before = counts()

    # The same token, and another token carrying the same nonce.
    for replay in (token, google(nonce="once", iat=int(time.time()) - 5)):
        assert_problem(sign_in(anon, "google", replay, nonce="once"), 401, "nonce_reused")
    assert counts() == before


def test_used_nonces_are_forgotten_once_their_token_has_expired(
    db: None, keys: KeyServer, anon: APIClient
) -> None:
    assert sign_in(anon, "google", google(nonce="old"), nonce="old").status_code == 201
    UsedNonce.objects.update(expires_at="2000-01-01T00:00:00Z")

    assert sign_in(anon, "google", google(nonce="new"), nonce="new").status_code == 200

    assert UsedNonce.objects.count() == 1  # "old" went; "new" is kept


def test_refusals_read_in_arabic(db: None, keys: KeyServer, anon: APIClient) -> None:
    response = anon.post(
        f"{API}/auth/apple",
        {"id_token": apple(lifetime=-120)},
        format="json",
        HTTP_ACCEPT_LANGUAGE="ar",
    )

    body = assert_problem(response, 401, "id_token_expired")
    assert any("\u0600" <= c <= "\u06ff" for c in body["detail"]), body


# --- The keys: rotation, unknown key ids, the key server down ----------------------------


def test_a_new_key_id_refetches_the_keys_once(
    db: None, keys: KeyServer, anon: APIClient, clock: list[float]
) -> None:
    assert sign_in(anon, "apple", apple(sub="s1")).status_code == 201
    keys.published["apple"] = [signing_key("a1"), signing_key("a2")]  # Apple rotates
    clock[0] += providers.REFETCH_SECONDS

    response = sign_in(anon, "apple", apple("a2", sub="s2"))

    assert response.status_code == 201, response.content
    assert keys.fetches("apple") == 2


def test_unknown_key_ids_refetch_at_most_once_per_interval(
    db: None, keys: KeyServer, anon: APIClient, clock: list[float]
) -> None:
    assert sign_in(anon, "apple", apple()).status_code == 201
    clock[0] += providers.REFETCH_SECONDS
    before = counts()

    for n in range(5):
        response = sign_in(anon, "apple", id_token("apple", signing_key(f"x{n}")))
        assert_problem(response, 401, "invalid_id_token")
    assert keys.fetches("apple") == 2  # the first unknown id refetched; the others waited

    clock[0] += providers.REFETCH_SECONDS
    assert_problem(
        sign_in(anon, "apple", id_token("apple", signing_key("x9"))), 401, "invalid_id_token"
    )
    assert keys.fetches("apple") == 3
    assert counts() == before


@pytest.mark.parametrize("failure", ["down", "500", "not a key set"])
def test_the_key_server_failing_is_a_503_that_changes_nothing(
    db: None,
    keys: KeyServer,
    anon: APIClient,
    clock: list[float],
    settings: Any,
    failure: str,
) -> None:
    if failure == "down":
        with key_server(KeyServer(published={})) as gone:
            pass  # its port is closed now
        settings.AUTH_APPLE_JWKS_URL = gone.url("apple")
    elif failure == "500":
        keys.status = 500
    else:
        keys.published["apple"] = []
    before = counts()

    response = sign_in(anon, "apple", apple())

    assert_problem(response, 503, "provider_unavailable")
    assert 1 <= int(response["Retry-After"]) <= providers.REFETCH_SECONDS + 1
    assert counts() == before
    # Within the interval no request goes out again; after it, one does, and works.
    fetched = keys.fetches("apple")
    assert_problem(sign_in(anon, "apple", apple()), 503, "provider_unavailable")
    assert keys.fetches("apple") == fetched
    if failure != "down":
        keys.status, keys.published["apple"] = 200, [signing_key("a1")]
        clock[0] += providers.REFETCH_SECONDS
        assert sign_in(anon, "apple", apple()).status_code == 201


def test_a_slow_key_server_times_out_rather_than_hang(
    db: None, keys: KeyServer, anon: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(providers, "READ_TIMEOUT_SECONDS", 0.2)
    keys.delay = 1.0
    started = time.monotonic()

    response = sign_in(anon, "apple", apple())

    assert_problem(response, 503, "provider_unavailable")
    assert time.monotonic() - started < 0.9


def test_the_keys_are_fetched_through_the_outbound_guard(
    db: None, keys: KeyServer, anon: APIClient, settings: Any
) -> None:
    settings.OUTBOUND_ALLOWED_NETWORKS = []  # as in production: loopback is not public

    response = sign_in(anon, "apple", apple())

    assert_problem(response, 503, "provider_unavailable")
    assert keys.fetches("apple") == 0  # refused before connecting


def test_cached_keys_outlive_the_key_server_going_down(
    db: None, keys: KeyServer, anon: APIClient, clock: list[float]
) -> None:
    assert sign_in(anon, "apple", apple(sub="s1")).status_code == 201
    keys.status = 503
    clock[0] += 3600 + providers.REFETCH_SECONDS  # past max-age: a refetch is tried, fails

    response = sign_in(anon, "apple", apple(sub="s2"))

    assert response.status_code == 201, response.content
    assert keys.fetches("apple") == 2
    # An unknown key id meanwhile: perhaps a new key we cannot fetch, so not "invalid".
    clock[0] += providers.REFETCH_SECONDS
    assert_problem(sign_in(anon, "apple", apple("a9")), 503, "provider_unavailable")


def test_the_keys_are_fetched_outside_any_transaction(
    transactional_db: None, keys: KeyServer, anon: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    fetch = providers._fetch
    in_atomic: list[bool] = []

    def recording(url: str) -> Any:
        in_atomic.append(connection.in_atomic_block)
        return fetch(url)

    monkeypatch.setattr(providers, "_fetch", recording)

    response = sign_in(anon, "apple", apple())

    assert response.status_code == 201, response.content
    assert in_atomic == [False]


def test_a_provider_without_client_ids_is_not_offered(
    db: None, keys: KeyServer, anon: APIClient, settings: Any
) -> None:
    settings.AUTH_GOOGLE_CLIENT_IDS = []

    response = sign_in(anon, "google", google())

    assert_problem(response, 404, "provider_not_configured")
    assert keys.fetches("google") == 0


# --- Linking and the personas of POST /auth/{provider} ----------------------------------------


def test_a_signed_in_caller_links_the_identity_instead(
    make_player: Callable[..., Player], keys: KeyServer
) -> None:
    amal = make_player()
    tokens = AuthToken.objects.count()

    response = sign_in(amal.client, "google", google(nonce="n"), nonce="n")

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["token"] is None and body["created"] is False
    assert body["user"]["id"] == amal.id
    assert AuthToken.objects.count() == tokens
    assert [i["provider"] for i in amal.client.get(ME).json()["identities"]] == ["google"]
    # From now on the identity signs in to that account.
    again = sign_in(APIClient(), "google", google())
    assert again.status_code == 200 and again.json()["user"]["id"] == amal.id
    # Linking it again is no change.
    assert sign_in(amal.client, "google", google()).status_code == 200
    assert Identity.objects.count() == 1


def test_an_identity_of_another_account_or_a_second_one_of_a_provider_is_refused(
    make_player: Callable[..., Player], keys: KeyServer
) -> None:
    amal, noura = make_player(), make_player()
    assert sign_in(amal.client, "google", google(sub="amal")).status_code == 200
    before = counts()

    taken = sign_in(noura.client, "google", google(sub="amal", nonce="n1"), nonce="n1")
    second = sign_in(amal.client, "google", google(sub="amal-2", nonce="n2"), nonce="n2")

    assert_problem(taken, 409, "identity_in_use")
    assert_problem(second, 409, "provider_already_linked")
    assert counts() == before  # not even the nonces were used


def test_a_revoked_or_deleted_callers_token_is_refused_and_changes_nothing(
    make_player: Callable[..., Player], keys: KeyServer, revoked: APIClient
) -> None:
    gone = make_player()
    assert gone.client.delete(ME, {"password": PASSWORD}, format="json").status_code == 204
    before = counts()

    for client in (revoked, gone.client):
        assert_problem(sign_in(client, "apple", apple()), 401, "authentication_failed")
    assert counts() == before


def test_a_sanctioned_callers_token_is_refused(banned: Player, keys: KeyServer) -> None:
    before = counts()

    assert_problem(sign_in(banned.client, "apple", apple()), 403, "account_banned")
    assert counts() == before


def test_a_sanctioned_account_cannot_sign_in_and_its_nonce_stays_unused(
    make_player: Callable[..., Player], keys: KeyServer, anon: APIClient
) -> None:
    from moderation import services as moderation

    amal, moderator = make_player(), make_player()
    assert sign_in(amal.client, "apple", apple()).status_code == 200
    moderation.sanction_apply(moderator=moderator.user, user_id=amal.id, kind="ban", reason="x")
    token = apple(nonce="n")
    before = counts()

    assert_problem(sign_in(anon, "apple", token, nonce="n"), 403, "account_banned")
    assert counts() == before

    Sanction.objects.update(lifted_at="2026-01-01T00:00:00Z")
    assert sign_in(anon, "apple", token, nonce="n").status_code == 200


def test_the_identity_of_a_deleted_account_makes_a_new_account(
    make_player: Callable[..., Player], keys: KeyServer, anon: APIClient
) -> None:
    amal = make_player()
    assert sign_in(amal.client, "apple", apple(sub="amal")).status_code == 200

    response = amal.client.delete(ME, {"password": PASSWORD}, format="json")

    assert response.status_code == 204, response.content
    assert not Identity.objects.filter(user_id=amal.id).exists()
    again = sign_in(anon, "apple", apple(sub="amal"))
    assert again.status_code == 201, again.content
    assert again.json()["user"]["id"] != amal.id


# --- DELETE /me/identities/{provider} ------------------------------------------------------------


def unlink(client: APIClient, provider: str) -> Any:
    return client.delete(f"{API}/me/identities/{provider}")


def test_an_account_with_a_password_unlinks_its_identity(
    make_player: Callable[..., Player], keys: KeyServer
) -> None:
    amal = make_player()
    assert sign_in(amal.client, "apple", apple(sub="amal")).status_code == 200

    response = unlink(amal.client, "apple")

    assert response.status_code == 204, response.content
    assert amal.client.get(ME).json()["identities"] == []
    assert sign_in(APIClient(), "apple", apple(sub="amal")).json()["created"] is True


def test_the_last_way_into_an_account_without_a_password_stays(
    db: None, keys: KeyServer, anon: APIClient
) -> None:
    body = sign_in(anon, "apple", apple(sub="amal")).json()
    client = authed(body["token"])
    before = counts()

    assert_problem(unlink(client, "apple"), 409, "last_sign_in_method")
    assert counts() == before

    # With a second provider linked, either may go, but not both.
    assert sign_in(client, "google", google(sub="amal-g")).status_code == 200
    assert unlink(client, "apple").status_code == 204
    assert_problem(unlink(client, "google"), 409, "last_sign_in_method")


def test_unlinking_what_is_not_linked_is_a_404(make_player: Callable[..., Player]) -> None:
    amal = make_player()

    assert_problem(unlink(amal.client, "google"), 404, "identity_not_linked")
    assert_problem(unlink(amal.client, "facebook"), 404, "not_found")


def test_anonymous_revoked_sanctioned_and_deleted_callers_may_not_unlink(
    make_player: Callable[..., Player], anon: APIClient, revoked: APIClient, banned: Player
) -> None:
    gone = make_player()
    assert gone.client.delete(ME, {"password": PASSWORD}, format="json").status_code == 204

    assert_problem(unlink(anon, "apple"), 401, "not_authenticated")
    assert_problem(unlink(revoked, "apple"), 401, "authentication_failed")
    assert_problem(unlink(gone.client, "apple"), 401, "authentication_failed")
    assert_problem(unlink(banned.client, "apple"), 403, "account_banned")


# --- Deleting an account made by a sign-in -------------------------------------------------------


def test_an_account_without_a_password_is_deleted_with_a_fresh_sign_in(
    db: None, keys: KeyServer, anon: APIClient
) -> None:
    body = sign_in(anon, "apple", apple(sub="amal")).json()
    client = authed(body["token"])
    fresh = {"provider": "apple", "id_token": apple(sub="amal", nonce="bye"), "nonce": "bye"}

    response = client.delete(ME, fresh, format="json")

    assert response.status_code == 204, response.content
    user = User.objects.get(pk=body["user"]["id"])
    assert user.deleted_at is not None and not user.is_active
    assert not Identity.objects.filter(user=user).exists()
    assert_problem(client.get(ME), 401, "authentication_failed")


def test_a_deletion_confirmed_by_someone_elses_sign_in_or_a_bad_token_changes_nothing(
    db: None, keys: KeyServer, anon: APIClient
) -> None:
    body = sign_in(anon, "apple", apple(sub="amal")).json()
    sign_in(anon, "google", google(sub="noura"))
    client = authed(body["token"])
    before = counts()

    other = client.delete(
        ME, {"provider": "google", "id_token": google(sub="noura")}, format="json"
    )
    expired = {"provider": "apple", "id_token": apple(sub="amal", lifetime=-120)}
    no_token = client.delete(ME, {"provider": "apple"}, format="json")

    problem = assert_problem(other, 422, "wrong_identity")
    assert [e["field"] for e in problem["errors"]] == ["id_token"]
    assert_problem(client.delete(ME, expired, format="json"), 401, "id_token_expired")
    assert [(e["field"], e["code"]) for e in no_token.json()["errors"]] == [
        ("id_token", "required")
    ]
    assert counts() == before
    assert client.get(ME).status_code == 200


# --- Races (real threads, each with its own connection) -----------------------------------------


def test_one_nonce_raced_by_two_requests_signs_in_once(
    transactional_db: None, keys: KeyServer
) -> None:
    token = google(nonce="raced")
    answers = race([lambda: sign_in(APIClient(), "google", token, nonce="raced")] * 2)

    assert sorted(a.status_code for a in answers) == [201, 401], answers
    assert_problem(next(a for a in answers if a.status_code == 401), 401, "nonce_reused")
    assert (User.objects.count(), Identity.objects.count(), AuthToken.objects.count()) == (1, 1, 1)


def test_a_double_tap_on_a_new_identity_makes_one_account(
    transactional_db: None, keys: KeyServer
) -> None:
    calls: list[Callable[[], Any]] = [
        partial(sign_in, APIClient(), "google", google(sub="new", nonce=n), nonce=n)
        for n in ("tap-1", "tap-2")
    ]
    answers = race(calls)

    assert sorted(a.status_code for a in answers) == [200, 201], answers
    assert len({a.json()["user"]["id"] for a in answers}) == 1
    assert (User.objects.count(), Identity.objects.count(), AuthToken.objects.count()) == (1, 1, 2)
