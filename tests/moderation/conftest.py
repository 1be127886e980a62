"""Fixtures of the moderation tests: a moderator, staff without the group, and a match that
has been played a little (a finished round and moves in the current one)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from games.models import Match
from tests.support.moderation import moderators_group, play_until_round
from tests.support.players import Player


@pytest.fixture
def moderator(make_player: Callable[..., Player]) -> Player:
    player = make_player("mod")
    player.user.is_staff = True
    player.user.save(update_fields=["is_staff"])
    player.user.groups.add(moderators_group())
    return player


@pytest.fixture
def mod_client(moderator: Player) -> Client:
    client = Client()
    client.force_login(moderator.user)
    return client


@pytest.fixture
def staff_client(make_player: Callable[..., Player]) -> Client:
    """Staff without the moderators group: sees nothing game-related."""
    player = make_player("plainstaff")
    player.user.is_staff = True
    player.user.save(update_fields=["is_staff"])
    client = Client()
    client.force_login(player.user)
    return client


@pytest.fixture
def player_client(make_player: Callable[..., Player]) -> Client:
    client = Client()
    client.force_login(make_player("justaplayer").user)
    return client


@pytest.fixture
def played(table: Callable[..., Any]) -> tuple[Match, list[Player]]:
    """An active match with round 1 finished and a few moves into round 2."""
    view, players = table()
    play_until_round(players, view["id"], 2, extra=3)
    return Match.objects.get(pk=view["id"]), players
