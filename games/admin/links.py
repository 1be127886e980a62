"""Links between admin pages."""

from __future__ import annotations

from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext

from accounts.models import User


def match_link(match_id: int | None) -> str:
    if match_id is None:
        return "-"
    url = reverse("admin:games_match_change", args=[match_id])
    return format_html('<a href="{}">Match {}</a>', url, match_id)


def round_replay_link(match_id: int, number: int) -> str:
    """The replay viewer of one round (games/admin/replay.py)."""
    url = reverse("admin:games_match_round_replay", args=[match_id, number])
    return format_html('<a href="{}">{}</a>', url, gettext("replay"))


def user_link(user: User | None) -> str:
    if user is None:
        return "-"
    url = reverse("admin:accounts_user_change", args=[user.pk])
    return format_html('<a href="{}">{}</a>', url, user.username)
