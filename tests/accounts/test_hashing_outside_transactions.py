"""Changing the password and deleting the account check (and make) password hashes before
their write transaction, as registration and login do (tests/security)."""

from __future__ import annotations

from collections.abc import Callable

from tests.security.test_hashing_outside_transactions import hashing_in_atomic  # noqa: F401
from tests.support.api import API
from tests.support.players import PASSWORD, Player


# transactional_db: no test-wide transaction, so in_atomic_block means one the code opened.
def test_a_password_change_hashes_outside_any_transaction(
    transactional_db: None,
    make_player: Callable[..., Player],
    hashing_in_atomic: list[bool],  # noqa: F811
) -> None:
    amal = make_player()
    hashing_in_atomic.clear()
    body = {"old_password": PASSWORD, "new_password": "a much longer passphrase"}

    response = amal.client.post(f"{API}/me/password", body, format="json")

    assert response.status_code == 204, response.content
    assert len(hashing_in_atomic) >= 2 and not any(hashing_in_atomic), hashing_in_atomic


def test_a_deletion_checks_the_password_outside_any_transaction(
    transactional_db: None,
    make_player: Callable[..., Player],
    hashing_in_atomic: list[bool],  # noqa: F811
) -> None:
    amal = make_player()
    hashing_in_atomic.clear()

    response = amal.client.delete(f"{API}/me", {"password": PASSWORD}, format="json")

    assert response.status_code == 204, response.content
    assert hashing_in_atomic and not any(hashing_in_atomic), hashing_in_atomic
