"""The match list's filters: by player, and matches a seat walked away from."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.models import EndReason, Seat


class PlayerFilter(admin.SimpleListFilter):
    """``?player=<user id>``: the matches a player sat in (linked from the user page)."""

    title = _("player")
    parameter_name = "player"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        value = self.value()
        if value and value.isascii() and value.isdigit():
            user = User.objects.filter(pk=int(value)).first()
            if user is not None:
                return [(value, user.username)]
        return []

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        value = self.value()
        if value and value.isascii() and value.isdigit():
            return queryset.filter(seats__user_id=int(value))
        return queryset


class AbandonedFilter(admin.SimpleListFilter):
    """A seat went away (timeouts or a sanction), or the match ended as abandoned."""

    title = _("abandoned")
    parameter_name = "abandoned"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", str(_("Yes"))), ("no", str(_("No")))]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        abandoned = Q(end_reason=EndReason.ABANDONED) | Exists(
            Seat.objects.filter(match=OuterRef("pk"), away=True)
        )
        if self.value() == "yes":
            return queryset.filter(abandoned)
        if self.value() == "no":
            return queryset.exclude(abandoned)
        return queryset
