"""Password reset by a mailed code (``POST /auth/password-reset``, then ``/confirm``): the
same answer and the same work whoever is named, the code's rules, every token revoked, the
lockout lifted, the refusals that change nothing, the personas, the throttles, Arabic, and
mail received by a real SMTP server after the commit."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.models import AuthToken, EmailCode, User
from accounts.recovery import MAX_FAILURES
from tests.support.api import assert_problem
from tests.support.mailbox import Mailbox, code_in, text_of
from tests.support.players import PASSWORD, Player

RESET = "/api/v1/auth/password-reset"
CONFIRM = "/api/v1/auth/password-reset/confirm"
LOGIN = "/api/v1/auth/login"
NEW = "a brand new passphrase"


@pytest.fixture
def send(django_capture_on_commit_callbacks: Any) -> Callable[..., Any]:
    """``send(client.post, path, body)``: the request, then what its commit runs (the mail)."""

    def run(method: Callable[..., Any], path: str, body: Any, **extra: Any) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return method(path, body, format="json", **extra)

    return run


@pytest.fixture
def verified(
    make_player: Callable[..., Player], mailbox: Mailbox, send: Callable[..., Any]
) -> Callable[..., Player]:
    """``verified(address)``: a player whose address is verified through the API."""

    def make(address: str = "amal@example.com", **names: Any) -> Player:
        player = make_player(**names)
        send(player.client.patch, "/api/v1/me", {"email": address})
        code = mailbox.last_code(address)
        assert (
            player.client.post("/api/v1/me/email/verify", {"code": code}, format="json").status_code
            == 200
        )
        return player

    return make


def _state(user: User) -> dict[str, Any]:
    """What a refusal must leave as it was."""
    fresh = User.objects.get(pk=user.pk)
    return {
        "password": fresh.password,
        "email": fresh.email,
        "tokens": list(AuthToken.objects.filter(user=user).values("pk", "revoked_at")),
        "codes": list(EmailCode.objects.filter(user=user).values("pk", "code_hash", "expires_at")),
    }


def _login(username: str, password: str) -> Any:
    return APIClient().post(LOGIN, {"username": username, "password": password}, format="json")


def test_a_player_who_forgot_their_password_gets_back_in(
    verified: Callable[..., Player], mailbox: Mailbox, send: Callable[..., Any], anon: APIClient
) -> None:
    player = verified()
    second_device = _login(player.user.username, PASSWORD).json()["token"]
    response = send(anon.post, RESET, {"login": player.user.username})
    assert response.status_code == 202 and response.content == b""
    (message,) = mailbox.to("amal@example.com")[-1:]
    assert message["Subject"] == "Reset your Baloot password"
    assert player.user.username in text_of(message)
    code = code_in(message)
    response = anon.post(
        CONFIRM, {"login": player.user.username, "code": code, "new_password": NEW}, format="json"
    )
    assert response.status_code == 204, response.content
    # Every token revoked: this device and the other.
    assert player.client.get("/api/v1/me").status_code == 401
    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Bearer {second_device}")
    assert other.get("/api/v1/me").status_code == 401
    assert _login(player.user.username, PASSWORD).status_code == 401
    assert _login(player.user.username, NEW).status_code == 200
    # Used once.
    again = anon.post(
        CONFIRM,
        {"login": player.user.username, "code": code, "new_password": "another long one"},
        format="json",
    )
    assert_problem(again, 422, "invalid_code")
    assert _login(player.user.username, NEW).status_code == 200


def test_the_verified_address_names_the_account_in_any_case(
    verified: Callable[..., Player], mailbox: Mailbox, send: Callable[..., Any], anon: APIClient
) -> None:
    player = verified("Amal@Example.com")
    assert send(anon.post, RESET, {"login": "AMAL@example.COM"}).status_code == 202
    code = mailbox.last_code("Amal@example.com")
    response = anon.post(
        CONFIRM, {"login": "amal@EXAMPLE.com", "code": code, "new_password": NEW}, format="json"
    )
    assert response.status_code == 204
    assert _login(player.user.username, NEW).status_code == 200


def test_nobody_is_told_apart_and_the_request_does_the_same_work_for_everyone(
    verified: Callable[..., Player],
    make_player: Callable[..., Player],
    mailbox: Mailbox,
    send: Callable[..., Any],
    anon: APIClient,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Unknown logins, an account without an address, an unverified (pending) address, a
    deleted account: the same empty 202 as a real one, and the one task queued alike; only
    the real one gets a mail."""
    from accounts import tasks

    real = verified()
    no_address = make_player()
    pending = make_player()
    send(
        pending.client.patch,
        "/api/v1/me",
        {"email": "pending@example.com"},
    )
    deleted = verified("gone@example.com")
    deleted.client.delete("/api/v1/me", {"password": PASSWORD}, format="json")
    queued: list[tuple[Any, ...]] = []
    original = tasks.password_reset_mail.apply_async

    def record(args: tuple[Any, ...], **options: Any) -> Any:
        queued.append((len(args), type(args[0]), type(args[1]), options))
        return original(args, **options)

    monkeypatch.setattr(tasks.password_reset_mail, "apply_async", record)
    sent = len(mailbox.messages)
    logins = [
        "nobody",
        "nobody@example.com",
        no_address.user.username,
        "pending@example.com",
        deleted.user.username,
        "gone@example.com",
        real.user.username,
    ]
    for login in logins:
        response = send(anon.post, RESET, {"login": login})
        assert response.status_code == 202 and response.content == b"", login
        assert "Retry-After" not in response
    assert queued == [queued[0]] * len(logins)
    assert len(mailbox.messages) == sent + 1
    assert mailbox.messages[-1]["To"] == "amal@example.com"
    assert not EmailCode.objects.filter(purpose="password_reset").exclude(user=real.user).exists()


def test_wrong_expired_and_unknown_codes_are_refused_and_change_nothing(
    verified: Callable[..., Player],
    mailbox: Mailbox,
    send: Callable[..., Any],
    anon: APIClient,
    clock: Any,
) -> None:
    player = verified()
    send(anon.post, RESET, {"login": player.user.username})
    code = mailbox.last_code("amal@example.com")
    wrong = f"{(int(code) + 1) % 10**6:06d}"
    before = _state(player.user)
    for body in [
        {"login": player.user.username, "code": wrong, "new_password": NEW},
        {"login": "nobody", "code": code, "new_password": NEW},
        {"login": "amal@example.co", "code": code, "new_password": NEW},
    ]:
        assert_problem(anon.post(CONFIRM, body, format="json"), 422, "invalid_code")
    assert _state(player.user) == before
    assert player.client.get("/api/v1/me").status_code == 200
    clock.advance(30 * 60)
    body = {"login": player.user.username, "code": code, "new_password": NEW}
    assert_problem(anon.post(CONFIRM, body, format="json"), 422, "invalid_code")
    assert _state(player.user) == before


def test_a_code_dies_after_the_wrong_guesses_limit(
    verified: Callable[..., Player], mailbox: Mailbox, send: Callable[..., Any], anon: APIClient
) -> None:
    player = verified()
    send(anon.post, RESET, {"login": player.user.username})
    code = mailbox.last_code("amal@example.com")
    wrong = f"{(int(code) + 1) % 10**6:06d}"
    for _ in range(MAX_FAILURES):
        body = {"login": player.user.username, "code": wrong, "new_password": NEW}
        assert_problem(anon.post(CONFIRM, body, format="json"), 422, "invalid_code")
    body = {"login": player.user.username, "code": code, "new_password": NEW}
    assert_problem(anon.post(CONFIRM, body, format="json"), 422, "invalid_code")
    assert _login(player.user.username, PASSWORD).status_code == 200


def test_a_new_request_replaces_the_code(
    verified: Callable[..., Player],
    mailbox: Mailbox,
    send: Callable[..., Any],
    anon: APIClient,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from accounts import recovery

    player = verified()
    codes = iter(["111111", "222222"])
    monkeypatch.setattr(recovery, "_code_new", lambda: next(codes))
    send(anon.post, RESET, {"login": player.user.username})
    send(anon.post, RESET, {"login": player.user.username})
    body = {"login": player.user.username, "code": "111111", "new_password": NEW}
    assert_problem(anon.post(CONFIRM, body, format="json"), 422, "invalid_code")
    body["code"] = "222222"
    assert anon.post(CONFIRM, body, format="json").status_code == 204


def test_a_weak_password_is_refused_and_the_code_still_works(
    verified: Callable[..., Player], mailbox: Mailbox, send: Callable[..., Any], anon: APIClient
) -> None:
    player = verified()
    send(anon.post, RESET, {"login": player.user.username})
    code = mailbox.last_code("amal@example.com")
    before = _state(player.user)
    for weak, reason in [
        ("password", "password_too_common"),
        ("12345678901", "password_entirely_numeric"),
        (player.user.username + "1", "password_too_similar"),
    ]:
        body = {"login": player.user.username, "code": code, "new_password": weak}
        problem = assert_problem(anon.post(CONFIRM, body, format="json"), 422, "weak_password")
        assert {e["field"] for e in problem["errors"]} == {"new_password"}
        assert reason in {e["code"] for e in problem["errors"]}, problem
    assert _state(player.user) == before
    body = {"login": player.user.username, "code": code, "new_password": NEW}
    assert anon.post(CONFIRM, body, format="json").status_code == 204


def test_the_reset_lifts_the_lockout_of_wrong_passwords(
    verified: Callable[..., Player],
    mailbox: Mailbox,
    send: Callable[..., Any],
    anon: APIClient,
    settings: Any,
) -> None:
    player = verified()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _login(player.user.username, "not it at all")
    assert_problem(_login(player.user.username, PASSWORD), 429, "login_locked")
    send(anon.post, RESET, {"login": player.user.username})
    code = mailbox.last_code("amal@example.com")
    body = {"login": player.user.username, "code": code, "new_password": NEW}
    assert anon.post(CONFIRM, body, format="json").status_code == 204
    assert _login(player.user.username, NEW).status_code == 200


def test_the_mail_is_in_the_account_language_else_the_request_one(
    verified: Callable[..., Player], mailbox: Mailbox, send: Callable[..., Any], anon: APIClient
) -> None:
    player = verified()
    send(anon.post, RESET, {"login": player.user.username}, HTTP_ACCEPT_LANGUAGE="ar")
    message = mailbox.messages[-1]
    assert message["Subject"].strip() == "أعد تعيين كلمة مرورك في بلوت"
    assert "كلمة مرور جديدة" in text_of(message) and code_in(message)
    player.client.patch("/api/v1/me", {"language": "en"}, format="json")
    send(anon.post, RESET, {"login": player.user.username}, HTTP_ACCEPT_LANGUAGE="ar")
    assert mailbox.messages[-1]["Subject"] == "Reset your Baloot password"
    body = {"login": player.user.username, "code": "000000", "new_password": NEW}
    problem = assert_problem(
        anon.post(CONFIRM, body, format="json", HTTP_ACCEPT_LANGUAGE="ar"), 422, "invalid_code"
    )
    assert "الرمز" in problem["detail"]


def test_requests_are_throttled_per_login_known_or_not(
    verified: Callable[..., Player],
    mailbox: Mailbox,
    send: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from rest_framework.throttling import ScopedRateThrottle

    monkeypatch.setitem(ScopedRateThrottle.THROTTLE_RATES, "password_reset", "2/hour")
    player = verified()
    for login in (player.user.username, "nobody"):
        client = APIClient()
        assert send(client.post, RESET, {"login": login}).status_code == 202
        assert send(client.post, RESET, {"login": login.upper()}).status_code == 202
        sent, codes = len(mailbox.messages), _state(player.user)["codes"]
        response = send(client.post, RESET, {"login": login})
        assert_problem(response, 429, "throttled")
        assert int(response["Retry-After"]) > 0
        assert len(mailbox.messages) == sent and _state(player.user)["codes"] == codes


def test_guesses_are_throttled_per_login_and_everything_per_address(
    verified: Callable[..., Player],
    mailbox: Mailbox,
    send: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from rest_framework.throttling import ScopedRateThrottle

    player = verified()
    send(APIClient().post, RESET, {"login": player.user.username})
    code = mailbox.last_code("amal@example.com")
    monkeypatch.setitem(ScopedRateThrottle.THROTTLE_RATES, "email_code", "2/hour")
    body = {
        "login": player.user.username,
        "code": "000000" if code != "000000" else "1",
        "new_password": NEW,
    }
    for _ in range(2):
        assert_problem(APIClient().post(CONFIRM, body, format="json"), 422, "invalid_code")
    before = _state(player.user)
    good = {**body, "code": code}
    assert_problem(APIClient().post(CONFIRM, good, format="json"), 429, "throttled")
    assert _state(player.user) == before
    # Per address: requests and confirmations from one address share a budget.
    monkeypatch.setitem(ScopedRateThrottle.THROTTLE_RATES, "email_code", "100/hour")
    monkeypatch.setitem(ScopedRateThrottle.THROTTLE_RATES, "password_reset_address", "1/hour")
    from django.core.cache import cache

    cache.clear()
    client = APIClient(REMOTE_ADDR="203.0.113.9")
    assert send(client.post, RESET, {"login": "nobody"}).status_code == 202
    assert_problem(client.post(CONFIRM, good, format="json"), 429, "throttled")
    assert_problem(send(client.post, RESET, {"login": player.user.username}), 429, "throttled")
    assert _state(player.user) == before
    assert (
        APIClient(REMOTE_ADDR="203.0.113.10").post(CONFIRM, good, format="json").status_code == 204
    )


def test_personas_on_the_reset_endpoints(
    verified: Callable[..., Player],
    mailbox: Mailbox,
    send: Callable[..., Any],
    revoked: APIClient,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Both are anonymous operations: a token, revoked or of a sanctioned account, changes
    nothing about the answer. A banned player can set a password, and is still refused at
    login; a deleted account gets no mail (above) and no code works for it."""
    from moderation import services as moderation

    moderator = verified("mod@example.com")
    player = verified()
    moderation.sanction_apply(
        moderator=moderator.user, user_id=player.id, kind="ban", reason="abuse"
    )
    for client in (revoked, player.client):
        assert send(client.post, RESET, {"login": player.user.username}).status_code == 202
    code = mailbox.last_code("amal@example.com")
    body = {"login": player.user.username, "code": code, "new_password": NEW}
    assert revoked.post(CONFIRM, body, format="json").status_code == 204
    assert_problem(_login(player.user.username, NEW), 403, "account_banned")
    # A deleted account: its old username names nobody any more.
    gone = verified("gone@example.com")
    name = gone.user.username
    send(APIClient().post, RESET, {"login": name})
    code = mailbox.last_code("gone@example.com")
    gone.client.delete("/api/v1/me", {"password": PASSWORD}, format="json")
    assert not EmailCode.objects.filter(user=gone.user).exists()
    for login in (name, "gone@example.com", f"deleted-{gone.id}"):
        body = {"login": login, "code": code, "new_password": NEW}
        assert_problem(APIClient().post(CONFIRM, body, format="json"), 422, "invalid_code")


def test_the_mail_leaves_after_the_commit(
    verified: Callable[..., Player],
    mailbox: Mailbox,
    anon: APIClient,
    django_capture_on_commit_callbacks: Any,
) -> None:
    player = verified()
    sent = len(mailbox.messages)
    with django_capture_on_commit_callbacks() as callbacks:
        assert anon.post(RESET, {"login": player.user.username}, format="json").status_code == 202
    assert len(mailbox.messages) == sent and len(callbacks) == 1
    callbacks[0]()
    assert len(mailbox.messages) == sent + 1
