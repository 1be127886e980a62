"""An email address, verified with a mailed code (``PATCH /me`` ``email``, then
``POST /me/email/verify``): the code's rules (one use, expiry, wrong guesses, replaced by a
newer one, stored only as a keyed hash), the refusals that change nothing, the personas, the
throttle, Arabic, and mail received by a real SMTP server after the commit."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.models import CodePurpose, EmailCode, User
from accounts.recovery import MAX_FAILURES
from tests.support.api import assert_problem
from tests.support.mailbox import Mailbox, code_in, text_of
from tests.support.players import PASSWORD, Player

VERIFY = "/api/v1/me/email/verify"
ADDRESS = "amal@example.com"


def _rows(user: User) -> dict[str, Any]:
    """What a refusal must leave as it was: the account's address and its codes."""
    fresh = User.objects.get(pk=user.pk)
    codes = list(EmailCode.objects.filter(user=user).order_by("purpose").values())
    return {"email": fresh.email, "verified": fresh.email_verified_at, "codes": codes}


@pytest.fixture
def send(django_capture_on_commit_callbacks: Any) -> Callable[..., Any]:
    """``send(client.patch, path, body)``: the request, then what its commit runs (the mail)."""

    def run(method: Callable[..., Any], path: str, body: Any) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return method(path, body, format="json")

    return run


def _set_email(send: Callable[..., Any], player: Player, address: str = ADDRESS) -> str:
    response = send(player.client.patch, "/api/v1/me", {"email": address})
    assert response.status_code == 200, response.content
    return address


def test_a_new_address_is_mailed_a_code_after_the_commit_and_stays_pending(
    make_player: Callable[..., Player],
    mailbox: Mailbox,
    django_capture_on_commit_callbacks: Any,
    settings: Any,
) -> None:
    player = make_player()
    with django_capture_on_commit_callbacks() as callbacks:
        response = player.client.patch("/api/v1/me", {"email": ADDRESS}, format="json")
    assert response.status_code == 200, response.content
    assert mailbox.messages == []  # nothing leaves inside the transaction
    assert len(callbacks) == 1
    callbacks[0]()
    (message,) = mailbox.messages
    assert mailbox.envelopes == [("no-reply@baloot.invalid", [ADDRESS])]
    assert message["From"] == settings.DEFAULT_FROM_EMAIL
    assert message["Subject"] == "Confirm your email address for Baloot"
    code = code_in(message)
    assert "30 minutes" in text_of(message)
    body = response.json()
    assert body["email"] is None and body["email_pending"] == ADDRESS
    user = User.objects.get(pk=player.id)
    assert user.email == "" and user.email_verified_at is None  # not the account's yet
    # Only a keyed hash is stored: the code is in no column.
    row = EmailCode.objects.get(user=user)
    assert row.purpose == CodePurpose.VERIFY_EMAIL and row.email == ADDRESS
    assert code not in str(list(EmailCode.objects.values_list()))
    assert player.client.get("/api/v1/me").json()["email_pending"] == ADDRESS


def test_the_code_verifies_the_address_once(
    make_player: Callable[..., Player], mailbox: Mailbox, send: Callable[..., Any]
) -> None:
    player = make_player()
    _set_email(send, player, "Amal@Example.COM")
    address = "Amal@example.com"  # the domain is not case-sensitive; the local part may be
    code = mailbox.last_code(address)
    response = player.client.post(VERIFY, {"code": f"{code[:3]} {code[3:]}"}, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["email"] == address and body["email_pending"] is None
    assert {"username", "display_name", "stats", "language"} <= set(body)
    user = User.objects.get(pk=player.id)
    assert user.email == address and user.email_verified_at is not None
    assert not EmailCode.objects.filter(user=user).exists()
    before = _rows(user)
    again = player.client.post(VERIFY, {"code": code}, format="json")
    assert_problem(again, 422, "invalid_code")
    assert _rows(user) == before


def test_wrong_guesses_change_nothing_and_kill_the_code_after_the_limit(
    make_player: Callable[..., Player], mailbox: Mailbox, send: Callable[..., Any]
) -> None:
    player = make_player()
    _set_email(send, player)
    code = mailbox.last_code(ADDRESS)
    wrong = f"{(int(code) + 1) % 10**6:06d}"
    for n in range(MAX_FAILURES):
        before = _rows(player.user)
        assert_problem(
            player.client.post(VERIFY, {"code": wrong}, format="json"), 422, "invalid_code"
        )
        after = _rows(player.user)
        assert after["email"] == "" and after["verified"] is None
        assert after["codes"][0]["failures"] == n + 1  # the guess is counted, nothing else
        assert {**after["codes"][0], "failures": 0} == {**before["codes"][0], "failures": 0}
    # Dead: the right code no longer works either.
    assert_problem(player.client.post(VERIFY, {"code": code}, format="json"), 422, "invalid_code")
    assert User.objects.get(pk=player.id).email == ""


def test_an_expired_code_and_a_replaced_one_are_refused(
    make_player: Callable[..., Player],
    mailbox: Mailbox,
    send: Callable[..., Any],
    clock: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from accounts import recovery

    codes = iter(["111111", "222222"])  # two different codes, whatever chance would draw
    monkeypatch.setattr(recovery, "_code_new", lambda: next(codes))
    player = make_player()
    _set_email(send, player)
    first = mailbox.last_code(ADDRESS)
    _set_email(send, player, "other@example.com")
    second = mailbox.last_code("other@example.com")
    assert (first, second) == ("111111", "222222")
    assert_problem(player.client.post(VERIFY, {"code": first}, format="json"), 422, "invalid_code")
    assert player.client.get("/api/v1/me").json()["email_pending"] == "other@example.com"
    clock.advance(timedelta(minutes=30).total_seconds())
    before = _rows(player.user)
    assert_problem(player.client.post(VERIFY, {"code": second}, format="json"), 422, "invalid_code")
    assert _rows(player.user) == before
    assert player.client.get("/api/v1/me").json()["email_pending"] is None


def test_an_address_verified_by_another_account_is_refused_and_nothing_changes(
    make_player: Callable[..., Player], mailbox: Mailbox, send: Callable[..., Any]
) -> None:
    first, second = make_player(), make_player()
    _set_email(send, first)
    verified = first.client.post(VERIFY, {"code": mailbox.last_code(ADDRESS)}, format="json")
    assert verified.status_code == 200
    _set_email(send, second, ADDRESS.upper().replace("EXAMPLE.COM", "example.com"))
    code = mailbox.last_code("AMAL@example.com")
    before = _rows(second.user)
    assert_problem(second.client.post(VERIFY, {"code": code}, format="json"), 409, "email_taken")
    assert _rows(second.user) == before  # the code is still there, the address still pending
    assert User.objects.get(pk=first.id).email == ADDRESS


def test_setting_the_verified_address_again_sends_nothing_and_null_removes_it(
    make_player: Callable[..., Player], mailbox: Mailbox, send: Callable[..., Any]
) -> None:
    player = make_player()
    _set_email(send, player)
    player.client.post(VERIFY, {"code": mailbox.last_code(ADDRESS)}, format="json")
    sent = len(mailbox.messages)
    body = send(player.client.patch, "/api/v1/me", {"email": ADDRESS}).json()
    assert len(mailbox.messages) == sent
    assert body["email"] == ADDRESS and body["email_pending"] is None
    body = send(player.client.patch, "/api/v1/me", {"email": None}).json()
    assert body["email"] is None and body["email_pending"] is None
    user = User.objects.get(pk=player.id)
    assert user.email == "" and user.email_verified_at is None
    assert len(mailbox.messages) == sent


@pytest.mark.parametrize(
    "email", ["not an address", "", 7, "a@b@example.com", "x" * 250 + "@e.com"]
)
def test_an_invalid_address_is_refused_and_nothing_is_sent(
    make_player: Callable[..., Player], mailbox: Mailbox, send: Callable[..., Any], email: Any
) -> None:
    player = make_player()
    before = _rows(player.user)
    response = send(player.client.patch, "/api/v1/me", {"email": email, "display_name": "New"})
    assert_problem(response, 400, "invalid")
    assert _rows(player.user) == before and mailbox.messages == []
    assert User.objects.get(pk=player.id).display_name != "New"


def test_the_mail_and_the_refusals_are_in_arabic(
    make_player: Callable[..., Player], mailbox: Mailbox, send: Callable[..., Any]
) -> None:
    player = make_player()
    response = send(player.client.patch, "/api/v1/me", {"email": ADDRESS, "language": "ar"})
    assert response.status_code == 200
    (message,) = mailbox.messages
    # (A long encoded subject is folded onto the next header line: the space is the fold.)
    assert message["Subject"].strip() == "أكّد عنوان بريدك الإلكتروني في بلوت"
    assert "دقيقة" in text_of(message) and code_in(message)
    body = assert_problem(
        player.client.post(VERIFY, {"code": "000000x"}, format="json"), 422, "invalid_code"
    )
    assert "الرمز" in body["detail"]


def test_verification_mails_are_throttled_per_account_before_anything_changes(
    make_player: Callable[..., Player],
    mailbox: Mailbox,
    send: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from rest_framework.throttling import ScopedRateThrottle

    monkeypatch.setitem(ScopedRateThrottle.THROTTLE_RATES, "email_send", "2/hour")
    player = make_player()
    _set_email(send, player, "one@example.com")
    _set_email(send, player, "two@example.com")
    before = _rows(player.user)
    response = send(
        player.client.patch, "/api/v1/me", {"email": "three@example.com", "display_name": "New"}
    )
    assert_problem(response, 429, "throttled")
    assert int(response["Retry-After"]) > 0
    assert _rows(player.user) == before and len(mailbox.messages) == 2
    assert User.objects.get(pk=player.id).display_name != "New"
    # Edits without a mail keep their own budget.
    assert send(player.client.patch, "/api/v1/me", {"display_name": "New"}).status_code == 200


def test_code_guesses_are_throttled_per_account(
    make_player: Callable[..., Player],
    mailbox: Mailbox,
    send: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from rest_framework.throttling import ScopedRateThrottle

    monkeypatch.setitem(ScopedRateThrottle.THROTTLE_RATES, "email_code", "2/hour")
    player = make_player()
    _set_email(send, player)
    code = mailbox.last_code(ADDRESS)
    for _ in range(2):
        player.client.post(VERIFY, {"code": "999999" if code != "999999" else "0"}, format="json")
    before = _rows(player.user)
    assert_problem(player.client.post(VERIFY, {"code": code}, format="json"), 429, "throttled")
    assert _rows(player.user) == before


def test_personas_on_verify_and_on_setting_an_address(
    make_player: Callable[..., Player],
    mailbox: Mailbox,
    send: Callable[..., Any],
    anon: APIClient,
    revoked: APIClient,
    banned: Player,
) -> None:
    deleted = make_player()
    _set_email(send, deleted)
    code = mailbox.last_code(ADDRESS)
    gone = APIClient()
    gone.credentials(HTTP_AUTHORIZATION=f"Bearer {deleted.token}")
    response = deleted.client.delete("/api/v1/me", {"password": PASSWORD}, format="json")
    assert response.status_code == 204
    sent = len(mailbox.messages)
    for client, status, codes in [
        (anon, 401, {"not_authenticated"}),
        (revoked, 401, {"authentication_failed"}),
        (gone, 401, {"authentication_failed"}),
        (banned.client, 403, {"account_banned"}),
    ]:
        response = send(client.post, VERIFY, {"code": code})
        assert response.status_code == status and response.json()["code"] in codes
        response = send(client.patch, "/api/v1/me", {"email": "x@example.com"})
        assert response.status_code == status and response.json()["code"] in codes
    assert len(mailbox.messages) == sent
    assert not EmailCode.objects.exists()
    assert User.objects.get(pk=banned.id).email == ""


def test_deleting_the_account_erases_the_address_and_its_codes(
    make_player: Callable[..., Player], mailbox: Mailbox, send: Callable[..., Any]
) -> None:
    player = make_player()
    _set_email(send, player)
    player.client.post(VERIFY, {"code": mailbox.last_code(ADDRESS)}, format="json")
    _set_email(send, player, "next@example.com")  # a pending one too
    assert (
        player.client.post(
            "/api/v1/auth/password-reset", {"login": player.user.username}, format="json"
        ).status_code
        == 202
    )
    assert EmailCode.objects.filter(user_id=player.id).count() == 2
    response = player.client.delete("/api/v1/me", {"password": PASSWORD}, format="json")
    assert response.status_code == 204
    user = User.objects.get(pk=player.id)
    assert user.email == "" and user.email_verified_at is None
    assert not EmailCode.objects.filter(user_id=player.id).exists()
    # The address is free for someone else.
    other = make_player()
    _set_email(send, other)
    other.client.post(VERIFY, {"code": mailbox.last_code(ADDRESS)}, format="json")
    assert User.objects.get(pk=other.id).email == ADDRESS


def test_the_address_a_new_one_replaces_is_told_in_the_account_language(
    make_player: Callable[..., Player], mailbox: Mailbox, send: Callable[..., Any]
) -> None:
    """A token is enough to change the address (and so where resets go): the owner of the
    old one hears of it."""
    player = make_player()
    _set_email(send, player)
    send(player.client.post, VERIFY, {"code": mailbox.last_code(ADDRESS)})
    assert len(mailbox.to(ADDRESS)) == 1  # the first address replaces none
    send(player.client.patch, "/api/v1/me", {"email": "new@example.org", "language": "ar"})
    send(player.client.post, VERIFY, {"code": mailbox.last_code("new@example.org")})
    notice = mailbox.to(ADDRESS)[-1]
    assert notice["Subject"].strip() == "تغيّر عنوان بريدك الإلكتروني في بلوت"
    text = text_of(notice)
    assert "n***@example.org" in text and "new@example.org" not in text
    assert player.user.username in text
    assert User.objects.get(pk=player.id).email == "new@example.org"


def test_every_way_of_deleting_erases_the_codes(
    make_player: Callable[..., Player], mailbox: Mailbox, send: Callable[..., Any]
) -> None:
    """``account_erase`` is what a deletion by password and one by a fresh Apple or Google
    sign-in both do."""
    from django.db import transaction

    from accounts.services import account_erase

    player = make_player()
    _set_email(send, player)
    send(player.client.post, VERIFY, {"code": mailbox.last_code(ADDRESS)})
    _set_email(send, player, "next@example.com")
    with transaction.atomic():
        account_erase(User.objects.select_for_update().get(pk=player.id))
    user = User.objects.get(pk=player.id)
    assert (user.email, user.email_verified_at) == ("", None)
    assert not EmailCode.objects.filter(user_id=player.id).exists()
