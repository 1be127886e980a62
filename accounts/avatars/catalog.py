"""The built-in avatars: drawn by ``scripts/draw_avatars.py``, served as static files from
``accounts/static/avatars/``. A player chooses one by its id (``PATCH /me``); bots have their
own, one per level, which no player may choose."""

from __future__ import annotations

from django.templatetags.static import static
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

# The players' catalog, in the order GET /avatars lists it. An id, once published, stays:
# accounts keep it (User.avatar).
CATALOG: dict[str, Promise] = {
    "spade": _("Spade"),
    "heart": _("Heart"),
    "diamond": _("Diamond"),
    "club": _("Club"),
    "crescent": _("Crescent"),
    "star": _("Star"),
    "palm": _("Palm"),
    "dallah": _("Dallah"),
}

# The bots' own, by level (games.models.BotLevel's values; accounts knows nothing of games).
BOT_AVATARS = {"easy": "bot-easy", "normal": "bot-normal", "hard": "bot-hard"}


def image_url(avatar_id: str) -> str:
    """Where a built-in avatar's picture is served (a path on the API's host)."""
    return static(f"avatars/{avatar_id}.png")
