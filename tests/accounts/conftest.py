"""Fixtures of the account lifecycle tests: the personas that are not seats."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from rest_framework.test import APIClient

from accounts.models import AuthToken
from accounts.services import token_revoke
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
