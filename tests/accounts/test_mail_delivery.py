"""How mail leaves: after the commit and outside any transaction (the password hashed
before one opens), on the push queue, through the file backend by default (a file under
var/mail/ and a log line without the code) or the SMTP server ``EMAIL_URL`` names."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from accounts import mail
from tests.security.test_hashing_outside_transactions import hashing_in_atomic  # noqa: F401
from tests.support.mailbox import Mailbox
from tests.support.players import Player

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def delivered_in_atomic(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[bool]]:
    """For every message sent, whether a transaction was open at the time."""
    seen: list[bool] = []
    deliver = mail.deliver

    def recording(message: mail.Mail) -> None:
        seen.append(connection.in_atomic_block)
        deliver(message)

    monkeypatch.setattr(mail, "deliver", recording)
    yield seen


# transactional_db: no test-wide transaction, so the commits are real ones and
# in_atomic_block means a transaction the code opened.
def test_the_whole_reset_sends_outside_transactions_and_hashes_outside_them(
    transactional_db: None,
    make_player: Callable[..., Player],
    mailbox: Mailbox,
    delivered_in_atomic: list[bool],
    hashing_in_atomic: list[bool],  # noqa: F811
) -> None:
    player = make_player()
    response = player.client.patch("/api/v1/me", {"email": "amal@example.com"}, format="json")
    assert response.status_code == 200
    code = mailbox.last_code("amal@example.com")
    verified = player.client.post("/api/v1/me/email/verify", {"code": code}, format="json")
    assert verified.status_code == 200
    assert (
        player.client.post(
            "/api/v1/auth/password-reset", {"login": player.user.username}, format="json"
        ).status_code
        == 202
    )
    code = mailbox.last_code("amal@example.com")
    hashing_in_atomic.clear()
    body = {"login": player.user.username, "code": code, "new_password": "a brand new one"}
    assert (
        player.client.post("/api/v1/auth/password-reset/confirm", body, format="json").status_code
        == 204
    )
    assert delivered_in_atomic == [False, False]
    assert hashing_in_atomic and not any(hashing_in_atomic), hashing_in_atomic


def test_the_default_backend_writes_a_file_and_logs_a_line_without_the_code(
    settings: Any, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    settings.EMAIL_FILE_PATH = tmp_path / "mail"
    message = mail.verification_compose(
        to="amal@example.com", name="أمل", code="042917", language="ar"
    )
    with caplog.at_level("INFO", logger="accounts.mail"):
        mail.deliver(message)
    (written,) = (tmp_path / "mail").iterdir()
    text = written.read_text()
    assert "To: amal@example.com" in text and "042917" in text and "أمل" in text
    (line,) = [r.getMessage() for r in caplog.records if r.name == "accounts.mail"]
    assert "a***@example.com" in line and str(tmp_path / "mail") in line
    assert "042917" not in line and "amal@" not in line


def test_mail_goes_to_the_push_workers_queue() -> None:
    from accounts import tasks
    from baloot_site.celery import app
    from live.push.tasks import PUSH_QUEUE

    for task in (tasks.mail_send, tasks.password_reset_mail):
        assert app.amqp.router.route({}, task.name)["queue"].name == PUSH_QUEUE, task.name


def _settings_with(env: dict[str, str], tmp_path: Path) -> dict[str, Any]:
    names = [
        "EMAIL_BACKEND",
        "EMAIL_HOST",
        "EMAIL_PORT",
        "EMAIL_HOST_USER",
        "EMAIL_HOST_PASSWORD",
        "EMAIL_USE_TLS",
        "EMAIL_USE_SSL",
        "EMAIL_FILE_PATH",
        "DEFAULT_FROM_EMAIL",
        "EMAIL_CODE_TTL_MINUTES",
    ]
    script = (
        "import json, django; from django.conf import settings; django.setup(); "
        f"print(json.dumps({{n: str(getattr(settings, n)) for n in {names!r}}}))"
    )
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("EMAIL_", "DEFAULT_FROM"))}
    result = subprocess.run(
        [sys.executable, "-c", script],
        env={
            **clean,
            "DJANGO_SETTINGS_MODULE": "baloot_site.settings",
            "BALOOT_VAR_DIR": str(tmp_path),
            **env,
        },
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return dict(json.loads(result.stdout.strip().splitlines()[-1]))


def test_email_url_names_the_smtp_server_and_unset_means_files_under_var_mail(
    tmp_path: Path,
) -> None:
    default = _settings_with({}, tmp_path)
    assert default["EMAIL_BACKEND"] == "django.core.mail.backends.filebased.EmailBackend"
    assert default["EMAIL_FILE_PATH"] == str(tmp_path / "mail")
    assert default["EMAIL_CODE_TTL_MINUTES"] == "30"
    smtp = _settings_with(
        {
            "EMAIL_URL": "smtp+tls://mailer:s3cret@mail.example.com:587",
            "DEFAULT_FROM_EMAIL": "Baloot <hello@example.com>",
        },
        tmp_path,
    )
    assert smtp["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert (smtp["EMAIL_HOST"], smtp["EMAIL_PORT"]) == ("mail.example.com", "587")
    assert (smtp["EMAIL_HOST_USER"], smtp["EMAIL_HOST_PASSWORD"]) == ("mailer", "s3cret")
    assert (smtp["EMAIL_USE_TLS"], smtp["EMAIL_USE_SSL"]) == ("True", "False")
    assert smtp["DEFAULT_FROM_EMAIL"] == "Baloot <hello@example.com>"
