"""Seats, rounds and moves: read-only lists, each row linked to its match."""

from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from core.admin import ReadOnlyAdmin
from games.admin.links import match_link, round_replay_link
from games.admin.pages import sawa_text
from games.models import Move, Round, Seat


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):
    list_display = ("id", "match_link", "index", "user", "bot", "away", "timeouts_in_row")
    list_filter = ("away", "bot")
    search_fields = ("=match__id", "user__username", "user__display_name")
    list_select_related = ("user",)

    @admin.display(description=_("match"), ordering="match")
    def match_link(self, seat: Seat) -> str:
        return match_link(seat.match_id)


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = (
        "id",
        "match_link",
        "ruleset",
        "number",
        "dealer",
        "status",
        "sawa",
        "started_at",
        "ended_at",
        "replay",
    )
    list_filter = ("status", "match__ruleset", ("started_at", admin.DateFieldListFilter))
    search_fields = ("=match__id",)
    list_select_related = ("match",)

    @admin.display(description=_("match"), ordering="match")
    def match_link(self, rnd: Round) -> str:
        return match_link(rnd.match_id)

    @admin.display(description=_("ruleset"), ordering="match__ruleset")
    def ruleset(self, rnd: Round) -> str:
        return rnd.match.ruleset

    @admin.display(description=_("Sawa"))
    def sawa(self, rnd: Round) -> str:
        return sawa_text((rnd.result or {}).get("sawa")) or "-"

    @admin.display(description=_("replay"))
    def replay(self, rnd: Round) -> str:
        return round_replay_link(rnd.match_id, rnd.number)


@admin.register(Move)
class MoveAdmin(ReadOnlyAdmin):
    list_display = (
        "id",
        "match_link",
        "seq",
        "version",
        "round_number",
        "seat",
        "actor",
        "payload",
    )
    list_filter = ("actor", ("created_at", admin.DateFieldListFilter))
    search_fields = ("=match__id",)

    @admin.display(description=_("match"), ordering="match")
    def match_link(self, move: Move) -> str:
        return match_link(move.match_id)
