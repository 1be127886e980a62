"""Password hashing never runs inside a write transaction.

On SQLite a write transaction holds the database's only write lock, and PBKDF2 is slow by
design: registration used to hash inside its transaction, so a registration flood stalled
every move (see test_register_flood.py for the flood itself).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.contrib.auth.hashers import MD5PasswordHasher
from django.db import connection
from rest_framework.test import APIClient

from tests.support.api import API
from tests.support.auth import PASSWORD, login


@pytest.fixture
def hashing_in_atomic(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[bool]]:
    """Records, for every hash computed (making or checking a password), whether it ran
    inside a transaction. The test settings hash with MD5 (tests/conftest.py)."""
    seen: list[bool] = []
    encode = MD5PasswordHasher.encode

    def recording(self: MD5PasswordHasher, password: str, salt: str) -> str:
        seen.append(connection.in_atomic_block)
        return encode(self, password, salt)

    monkeypatch.setattr(MD5PasswordHasher, "encode", recording)
    yield seen


# transactional_db: no test-wide transaction, so in_atomic_block means one the code opened.
def test_register_hashes_before_its_transaction(
    transactional_db: None, hashing_in_atomic: list[bool], anon: APIClient
) -> None:
    body = {"username": "layla", "password": PASSWORD, "display_name": "Layla"}
    response = anon.post(f"{API}/auth/register", body, format="json")
    assert response.status_code == 201, response.content
    assert hashing_in_atomic and not any(hashing_in_atomic), hashing_in_atomic


def test_login_checks_the_password_outside_any_transaction(
    transactional_db: None, hashing_in_atomic: list[bool], anon: APIClient
) -> None:
    body = {"username": "layla", "password": PASSWORD, "display_name": "Layla"}
    assert anon.post(f"{API}/auth/register", body, format="json").status_code == 201
    hashing_in_atomic.clear()
    for password in (PASSWORD, "a wrong password"):
        login(anon, "layla", password)
    login(anon, "nobody", PASSWORD)  # an unknown user is hashed too, for equal timing
    assert len(hashing_in_atomic) >= 3 and not any(hashing_in_atomic), hashing_in_atomic


def test_a_hash_in_a_transaction_would_be_seen(
    transactional_db: None, hashing_in_atomic: list[bool]
) -> None:
    """The probe itself can fail: hashing inside atomic() is recorded as such."""
    from django.contrib.auth.hashers import make_password
    from django.db import transaction

    with transaction.atomic():
        make_password(PASSWORD)
    assert hashing_in_atomic == [True]
