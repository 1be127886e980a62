"""Helpers of the moderation tests: the moderators group, and playing a match a little."""

from __future__ import annotations

import importlib
from typing import Any

from django.contrib.auth.models import Group, Permission

from tests.support.api import API, view_of
from tests.support.players import Player


def play_one(players: list[Player], match_id: int) -> dict[str, Any]:
    """The player to act makes a legal move: a real bid when they can (so rounds get played
    out rather than redealt), otherwise the first legal move."""
    to_act = view_of(players[0], match_id)["round"]["to_act"]
    view = view_of(players[to_act], match_id)
    legal = view["round"]["legal_moves"]
    assert legal, view
    bids = [m for m in legal if m["type"] == "bid" and m["call"] in ("sun", "hokum")]
    move = bids[0] if bids and view["round"]["phase"] == "bidding" else legal[0]
    response = players[to_act].client.post(f"{API}/matches/{match_id}/moves", move, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def play_until_round(players: list[Player], match_id: int, number: int, extra: int = 0) -> None:
    """Play legal moves until round ``number`` is under way, then ``extra`` moves more."""
    for _ in range(400):
        view = view_of(players[0], match_id)
        if view["status"] != "active" or view["round"]["number"] >= number:
            break
        play_one(players, match_id)
    for _ in range(extra):
        play_one(players, match_id)


def moderators_group() -> Group:
    """The group the data migration created. A transactional test (live_server) may run
    after another one flushed the database, which removes migration-made rows but not the
    permissions (recreated on flush), so rebuild it from the migration's own list then."""
    group = Group.objects.filter(name="moderators").first()
    if group is not None:
        return group
    migration = importlib.import_module("games.migrations.0004_moderators_group")
    # Report and ModerationAction have moved to the moderation app since 0004 was written.
    moved = importlib.import_module("moderation.migrations.0001_initial").MOVED
    group = Group.objects.create(name="moderators")
    group.permissions.set(
        Permission.objects.get(
            content_type__app_label="moderation" if model in moved else app,
            content_type__model=model,
            codename=codename,
        )
        for app, model, codename in migration.MODERATOR_PERMISSIONS
    )
    later = importlib.import_module("tournaments.migrations.0002_moderators")
    group.permissions.add(
        *(
            Permission.objects.get(
                content_type__app_label="tournaments", content_type__model=model, codename=codename
            )
            for model, codename in later.TOURNAMENT_PERMISSIONS
        )
    )
    return group
