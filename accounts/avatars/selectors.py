"""An avatar as the API shows it, next to every name: seats, profiles, leaderboards, lists."""

from __future__ import annotations

import functools
from typing import Any

from django.core.files.storage import default_storage

from accounts.avatars.catalog import BOT_AVATARS, CATALOG, image_url
from accounts.models import User

KINDS = ("catalog", "picture", "bot")


def avatar_json(user: User) -> dict[str, Any] | None:
    """The player's avatar (``{"kind", "id", "url"}``), or None when they have none (or the
    account was deleted: its avatar went with it)."""
    if user.avatar_picture:
        return {"kind": "picture", "id": None, "url": default_storage.url(user.avatar_picture.name)}
    if user.avatar in CATALOG:
        return _catalog_json(user.avatar)
    return None


@functools.cache
def _catalog_json(avatar_id: str) -> dict[str, Any]:
    # Read-only by contract: renderers copy it into their output, never change it.
    return {"kind": "catalog", "id": avatar_id, "url": image_url(avatar_id)}


@functools.cache
def bot_avatar_json(level: str) -> dict[str, Any]:
    """A bot seat's avatar: its level's own picture; ``id`` is the level."""
    return {"kind": "bot", "id": level, "url": image_url(BOT_AVATARS.get(level, "bot-normal"))}


def catalog_json() -> list[dict[str, Any]]:
    """GET /avatars: the built-in avatars a player may choose, names in the reader's language."""
    return [{"id": key, "name": str(name), "url": image_url(key)} for key, name in CATALOG.items()]
