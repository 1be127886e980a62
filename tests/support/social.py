"""Helpers of the players' community tests: the personas that are not a seat (sanctioned,
revoked, deleted), a finished table, and a snapshot of the community rows to show that a
refusal changed nothing."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import AuthToken, Sanction
from accounts.services import token_revoke
from players.models import Block, Follow, Invitation, Rematch
from tests.support.api import API, match_url
from tests.support.players import Player, player_register

# The personas that are refused before any rule of the feature is read, with what they get.
GATE = {
    "anonymous": (401, "not_authenticated"),
    "revoked": (401, "authentication_failed"),
    "sanctioned": (403, "account_banned"),
}


def ban(player: Player) -> None:
    staff = player_register()
    Sanction.objects.create(user=player.user, kind="ban", reason="test", created_by=staff.user)


def revoke(player: Player) -> None:
    token_revoke(token=AuthToken.objects.get(user=player.user))


def erase(player: Player) -> None:
    """The account as a deletion leaves it: the row stays, flagged and inactive."""
    player.user.deleted_at = timezone.now()
    player.user.is_active = False
    player.user.save(update_fields=["deleted_at", "is_active"])


def gate_client(persona: str, player: Player) -> APIClient:
    """``player``'s client turned into ``persona`` (anonymous: a client with no token)."""
    if persona == "anonymous":
        return APIClient()
    if persona == "revoked":
        revoke(player)
    else:
        ban(player)
    return player.client


def community() -> dict[str, Any]:
    """Every community row, to compare before and after a refusal."""
    return {
        "follows": list(Follow.objects.order_by("pk").values()),
        "blocks": list(Block.objects.order_by("pk").values()),
        "invitations": list(Invitation.objects.order_by("pk").values()),
        "rematches": list(Rematch.objects.order_by("pk").values()),
    }


def finish_by_resigning(player: Player, match_id: int) -> None:
    response = player.client.post(match_url(match_id, "/resign"), format="json")
    assert response.status_code == 200, response.content


def me(tail: str) -> str:
    return f"{API}/me{tail}"
