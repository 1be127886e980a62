from __future__ import annotations

from typing import Any

import pytest

from tests.support.moderation import moderators_group
from tests.support.players import Player, player_register
from tests.support.tournaments import TournamentDriver


@pytest.fixture
def staff(db: None) -> Player:
    """Staff in the moderators group (who may create public tournaments)."""
    player = player_register()
    player.user.is_staff = True
    player.user.save(update_fields=["is_staff"])
    player.user.groups.add(moderators_group())
    return player


@pytest.fixture
def cup(
    db: None,
    django_capture_on_commit_callbacks: Any,
    clock: Any,
    task_recorder: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> TournamentDriver:
    return TournamentDriver(django_capture_on_commit_callbacks, clock, monkeypatch)
