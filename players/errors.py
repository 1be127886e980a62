"""The players app's refusals: one class per error, its code and status on the class."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from core.errors import NotFound


class UnknownRuleset(NotFound):
    code = "unknown_ruleset"
    default_detail = _("No such ruleset.")  # type: ignore[assignment]


class PlayerNotFound(NotFound):
    """An unknown username, or a deleted account (its profile is gone with its data)."""

    code = "player_not_found"
    default_detail = _("No such player.")  # type: ignore[assignment]
