"""Moderation on the match pages: the open-reports column and filter, the reports and the
log on a match's page, and the actions (abort, adjudicate, a seat to a bot, more time).

Registered in place of games' ``MatchAdmin`` (a subclass of it), so games knows nothing of
moderation.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Exists, OuterRef, Q, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import path, reverse
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.admin.matches import MatchAdmin
from games.models import Match
from moderation import services as moderation
from moderation.admin.steps import (
    AdjudicateForm,
    ExtendForm,
    ReasonForm,
    SeatToBotForm,
    Step,
    run_step,
)
from moderation.models import ModerationAction, Report, ReportStatus


class HasOpenReportsFilter(admin.SimpleListFilter):
    title = _("has open reports")
    parameter_name = "open_reports"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", str(_("Yes"))), ("no", str(_("No")))]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        open_reports = Exists(Report.objects.filter(match=OuterRef("pk"), status=ReportStatus.OPEN))
        if self.value() == "yes":
            return queryset.filter(open_reports)
        if self.value() == "no":
            return queryset.filter(~open_reports)
        return queryset


def _abort(user: User, match: Match, data: dict[str, Any]) -> Any:
    return moderation.match_abort(moderator=user, match_id=match.pk, reason=data["reason"])


def _adjudicate(user: User, match: Match, data: dict[str, Any]) -> Any:
    return moderation.match_adjudicate(
        moderator=user, match_id=match.pk, winner_team=data["winner_team"], reason=data["reason"]
    )


def _seat_to_bot(user: User, match: Match, data: dict[str, Any]) -> Any:
    return moderation.match_seat_to_bot(
        moderator=user,
        match_id=match.pk,
        seat=data["seat"],
        level=data["level"],
        reason=data["reason"],
    )


def _extend(user: User, match: Match, data: dict[str, Any]) -> Any:
    return moderation.match_deadline_extend(
        moderator=user,
        match_id=match.pk,
        by=timedelta(minutes=data["minutes"]),
        reason=data["reason"],
    )


MATCH_STEPS = {
    "abort": Step(_("Abort (no result)"), ReasonForm, _abort),
    "adjudicate": Step(_("Adjudicate (award the match)"), AdjudicateForm, _adjudicate),
    "seat_to_bot": Step(_("Replace a seat with a bot"), SeatToBotForm, _seat_to_bot),
    "extend_deadline": Step(_("Extend the deadline"), ExtendForm, _extend),
}


class ModeratedMatchAdmin(MatchAdmin):
    list_display = (*MatchAdmin.list_display[:-1], "open_reports", "created_at")
    list_filter = (*MatchAdmin.list_filter[:-2], HasOpenReportsFilter, *MatchAdmin.list_filter[-2:])
    actions = ["abort_matches", "adjudicate_match", "seat_to_bot", "extend_deadline"]

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return (
            super()
            .get_queryset(request)
            .annotate(
                open_report_count=Count("reports", filter=Q(reports__status=ReportStatus.OPEN))
            )
        )

    def has_moderate_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("games.moderate_match")

    @admin.display(description=_("open reports"), ordering="open_report_count")
    def open_reports(self, match: Match) -> int:
        return getattr(match, "open_report_count", 0)

    # Admin actions: each asks for a reason on an intermediate page, then calls the service.

    @admin.action(description=_("Abort (no result)"), permissions=["moderate"])
    def abort_matches(self, request: HttpRequest, queryset: QuerySet) -> Any:
        return run_step(self, request, list(queryset), MATCH_STEPS["abort"], action="abort_matches")

    @admin.action(description=_("Adjudicate (award to a team)"), permissions=["moderate"])
    def adjudicate_match(self, request: HttpRequest, queryset: QuerySet) -> Any:
        step = MATCH_STEPS["adjudicate"]
        return run_step(self, request, list(queryset), step, action="adjudicate_match")

    @admin.action(description=_("Replace a seat with a bot"), permissions=["moderate"])
    def seat_to_bot(self, request: HttpRequest, queryset: QuerySet) -> Any:
        step = MATCH_STEPS["seat_to_bot"]
        return run_step(self, request, list(queryset), step, action="seat_to_bot")

    @admin.action(description=_("Extend the deadline"), permissions=["moderate"])
    def extend_deadline(self, request: HttpRequest, queryset: QuerySet) -> Any:
        step = MATCH_STEPS["extend_deadline"]
        return run_step(self, request, list(queryset), step, action="extend_deadline")

    def get_urls(self) -> list[Any]:
        wrap = self.admin_site.admin_view
        return [
            path(
                "<int:object_id>/moderate/<str:step>/",
                wrap(self.moderate_view),
                name="games_match_moderate",
            ),
            *super().get_urls(),
        ]

    def match_page_extra(self, request: HttpRequest, match: Match) -> dict[str, Any]:
        extra: dict[str, Any] = {
            "moderation_log": ModerationAction.objects.filter(match=match).select_related(
                "moderator"
            ),
            "match_reports": Report.objects.filter(match=match).select_related(
                "reporter", "reported"
            ),
        }
        if self.has_moderate_permission(request):
            extra["moderation_steps"] = [(k, s.title) for k, s in MATCH_STEPS.items()]
        return extra

    def moderate_view(self, request: HttpRequest, object_id: int, step: str) -> HttpResponse:
        if not self.has_moderate_permission(request):
            raise PermissionDenied
        match = get_object_or_404(Match, pk=object_id)
        if step not in MATCH_STEPS:
            raise PermissionDenied
        response = run_step(self, request, [match], MATCH_STEPS[step], action=None)
        if response is None:
            return HttpResponseRedirect(reverse("admin:games_match_change", args=[match.pk]))
        return response


admin.site.unregister(Match)
admin.site.register(Match, ModeratedMatchAdmin)
