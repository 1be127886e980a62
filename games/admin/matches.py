"""The match pages: the list, and a match's page with seats, score sheet, the move log with
the full deal, record downloads and each round's replay viewer. Read-only: a match changes
only through the services (moderation adds its actions on top, in
``moderation.admin.matches``)."""

from __future__ import annotations

import json
from typing import Any, ClassVar

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path
from django.utils.translation import gettext_lazy as _

from core.admin import ReadOnlyAdmin, ReadOnlyInline
from games import records
from games.admin.filters import AbandonedFilter, PlayerFilter
from games.admin.pages import match_page
from games.admin.replay import replay_page
from games.models import Match, Round, RoundStatus, Seat


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = ("index", "user", "bot", "away", "timeouts_in_row", "joined_at")


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):
    change_form_template = "admin/games/match/change_form.html"
    # Declared as open-ended tuples so moderation's subclass can add a column and a filter.
    list_display: tuple[str, ...] = (
        "id",
        "status",
        "ruleset",
        "players",
        "scores_text",
        "winner_team",
        "end_reason",
        "version",
        "created_at",
    )
    list_filter: ClassVar[tuple[Any, ...]] = (
        "status",
        "ruleset",
        "end_reason",
        ("created_at", admin.DateFieldListFilter),
        PlayerFilter,
        AbandonedFilter,
        "visibility",
        "rated",
    )
    search_fields = ("=id", "seats__user__username", "seats__user__display_name")
    date_hierarchy = "created_at"
    exclude = ("snapshot",)
    inlines = [SeatInline]

    def get_queryset(self, request: HttpRequest) -> Any:
        return super().get_queryset(request).prefetch_related("seats__user")

    @admin.display(description=_("players"))
    def players(self, match: Match) -> str:
        return ", ".join(
            f"{s.index}:{s.user.username if s.user else (s.bot + ' bot' if s.bot else '-')}"
            for s in match.seats.all()
        )

    @admin.display(description=_("scores"))
    def scores_text(self, match: Match) -> str:
        return f"{match.score_team0} - {match.score_team1}"

    def get_urls(self) -> list[Any]:
        wrap = self.admin_site.admin_view
        return [
            path(
                "<int:object_id>/rounds/<int:number>/record/",
                wrap(self.round_record_view),
                name="games_match_round_record",
            ),
            path(
                "<int:object_id>/rounds/<int:number>/replay/",
                wrap(self.round_replay_view),
                name="games_match_round_replay",
            ),
            *super().get_urls(),
        ]

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        match = self.get_object(request, object_id)
        extra = dict(extra_context or {})
        if match is not None and self.has_view_permission(request, match):
            extra.update(match_page(match))
            extra.update(self.match_page_extra(request, match))
        return super().change_view(request, object_id, form_url, extra)

    def match_page_extra(self, request: HttpRequest, match: Match) -> dict[str, Any]:
        """What an admin registered over this one (moderation) adds to a match's page."""
        return {}

    def round_record_view(self, request: HttpRequest, object_id: int, number: int) -> HttpResponse:
        match = get_object_or_404(Match, pk=object_id)
        if not self.has_view_permission(request, match):
            raise PermissionDenied
        rnd = get_object_or_404(Round, match=match, number=number)
        if rnd.status == RoundStatus.IN_PROGRESS:
            return HttpResponse("That round is still being played.", status=409)
        body = json.dumps(records.round_record(match, rnd), indent=2)
        response = HttpResponse(body, content_type="application/json")
        filename = f"match-{match.pk}-round-{rnd.number}.json"
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response

    def round_replay_view(self, request: HttpRequest, object_id: int, number: int) -> HttpResponse:
        """One round replayed step by step (games/admin/replay.py). Seen by whoever may view
        the match here: staff see every hand in the admin. A round still in play replays up
        to its last move, so a moderator can look at a live table."""
        match = get_object_or_404(Match, pk=object_id)
        if not self.has_view_permission(request, match):
            raise PermissionDenied
        rnd = get_object_or_404(Round, match=match, number=number)
        context = {
            **self.admin_site.each_context(request),
            **replay_page(match, rnd),
            "opts": self.opts,
        }
        return TemplateResponse(request, "admin/games/match/round_replay.html", context)
