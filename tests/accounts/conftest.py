"""Fixtures of the account lifecycle tests: the personas that are not seats."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.models import AuthToken
from accounts.services import token_revoke
from tests.support.mailbox import Mailbox, mailbox_start
from tests.support.players import Player


@pytest.fixture
def banned(make_player: Callable[..., Player]) -> Player:
    """A player under a ban, applied by a moderator through the moderation service."""
    from moderation import services as moderation

    moderator = make_player()
    player = make_player()
    moderation.sanction_apply(
        moderator=moderator.user, user_id=player.id, kind="ban", reason="abuse"
    )
    return player


@pytest.fixture
def revoked(make_player: Callable[..., Player]) -> APIClient:
    """A client whose only token was revoked (logged out)."""
    player = make_player()
    token_revoke(token=AuthToken.objects.get(user=player.user))
    return player.client


@pytest.fixture
def mailbox(settings: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Mailbox]:
    """A local SMTP server the service sends to: ``EMAIL_URL`` names it (parsed as the
    settings parse it), and Celery runs the mail tasks in this process (eagerly), so a
    callback run on commit delivers its message before it returns."""
    import environ

    from baloot_site.celery import app

    # The server's own log of every SMTP line is noise in a failure's report.
    monkeypatch.setattr(logging.getLogger("mail.log"), "level", logging.WARNING)
    box, controller = mailbox_start()
    url = f"smtp://{controller.hostname}:{controller.port}"
    for name, value in environ.Env.email_url_config(url).items():
        setattr(settings, name, value)
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    monkeypatch.setattr(app.conf, "task_always_eager", True)
    monkeypatch.setattr(app.conf, "task_eager_propagates", True)
    try:
        yield box
    finally:
        controller.stop()
