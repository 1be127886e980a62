"""The moderation admin: matches, seats, rounds, moves, reports and the moderation log.

Read-only by design: game state changes only through the services, so the admin has no add,
edit or delete for game rows. Moderators act through admin actions (each asks for a reason on
an intermediate page) that call games.moderation, which locks the match, bumps its version,
schedules follow-ups and writes the moderation log row in one transaction. Who may do what is
the ``moderators`` group's permissions (games/migrations/0004_moderators_group.py).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Exists, OuterRef, Q, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join

from accounts.admin import ReadOnlyInline
from accounts.models import SanctionKind, User
from core.errors import DomainError
from games import moderation, records
from games.admin_pages import match_page
from games.models import (
    BotLevel,
    EndReason,
    Match,
    ModerationAction,
    Move,
    Report,
    ReportStatus,
    Round,
    RoundStatus,
    Seat,
)


class ReadOnlyAdmin(admin.ModelAdmin):
    """Game rows are written by the services only."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def _match_link(match_id: int | None) -> str:
    if match_id is None:
        return "-"
    url = reverse("admin:games_match_change", args=[match_id])
    return format_html('<a href="{}">Match {}</a>', url, match_id)


def _user_link(user: User | None) -> str:
    if user is None:
        return "-"
    url = reverse("admin:accounts_user_change", args=[user.pk])
    return format_html('<a href="{}">{}</a>', url, user.username)


# --- Filters --------------------------------------------------------------------------------


class PlayerFilter(admin.SimpleListFilter):
    """``?player=<user id>``: the matches a player sat in (linked from the user page)."""

    title = "player"
    parameter_name = "player"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        value = self.value()
        if value and value.isdigit():
            user = User.objects.filter(pk=int(value)).first()
            if user is not None:
                return [(value, user.username)]
        return []

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        value = self.value()
        if value and value.isdigit():
            return queryset.filter(seats__user_id=int(value))
        return queryset


class HasOpenReportsFilter(admin.SimpleListFilter):
    title = "has open reports"
    parameter_name = "open_reports"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", "Yes"), ("no", "No")]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        open_reports = Exists(Report.objects.filter(match=OuterRef("pk"), status=ReportStatus.OPEN))
        if self.value() == "yes":
            return queryset.filter(open_reports)
        if self.value() == "no":
            return queryset.filter(~open_reports)
        return queryset


class AbandonedFilter(admin.SimpleListFilter):
    """A seat went away (timeouts or a sanction), or the match ended as abandoned."""

    title = "abandoned"
    parameter_name = "abandoned"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", "Yes"), ("no", "No")]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        abandoned = Q(end_reason=EndReason.ABANDONED) | Exists(
            Seat.objects.filter(match=OuterRef("pk"), away=True)
        )
        if self.value() == "yes":
            return queryset.filter(abandoned)
        if self.value() == "no":
            return queryset.exclude(abandoned)
        return queryset


class ReportStatusFilter(admin.SimpleListFilter):
    """The queue: open reports unless another status is asked for."""

    title = "status"
    parameter_name = "status"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [*ReportStatus.choices, ("all", "All")]

    def choices(self, changelist: Any) -> Any:
        current = self.value() or ReportStatus.OPEN
        for value, label in self.lookup_choices:
            yield {
                "selected": current == value,
                "query_string": changelist.get_query_string({self.parameter_name: value}),
                "display": label,
            }

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        value = self.value() or ReportStatus.OPEN
        if value == "all":
            return queryset
        return queryset.filter(status=value)


# --- Moderation forms -------------------------------------------------------------------------


class ReasonForm(forms.Form):
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text="Why: kept in the moderation log.",
    )


class AdjudicateForm(ReasonForm):
    winner_team = forms.TypedChoiceField(
        choices=[(0, "Team 0 (seats 0 and 2)"), (1, "Team 1 (seats 1 and 3)")], coerce=int
    )
    field_order = ["winner_team", "reason"]


class SeatToBotForm(ReasonForm):
    seat = forms.TypedChoiceField(choices=[(i, f"Seat {i}") for i in range(4)], coerce=int)
    level = forms.ChoiceField(choices=BotLevel.choices, initial=BotLevel.EASY)
    field_order = ["seat", "level", "reason"]


class ExtendForm(ReasonForm):
    minutes = forms.IntegerField(min_value=1, max_value=30 * 24 * 60, initial=60)
    field_order = ["minutes", "reason"]


class SanctionForm(ReasonForm):
    kind = forms.ChoiceField(choices=[(SanctionKind.SUSPEND, "Suspend"), (SanctionKind.BAN, "Ban")])
    ends_at = forms.DateTimeField(
        required=False, help_text="For a suspension: until when (UTC, YYYY-MM-DD HH:MM)."
    )
    field_order = ["kind", "ends_at", "reason"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("kind") == SanctionKind.SUSPEND:
            ends_at = data.get("ends_at")
            if ends_at is None or ends_at <= timezone.now():
                self.add_error("ends_at", "A suspension needs an end in the future.")
        return data


@dataclass(frozen=True)
class Step:
    """One moderation action: its title, its form, and how to apply it to one object."""

    title: str
    form: type[forms.Form]
    apply: Callable[[User, Any, dict[str, Any]], Any]


def _run_step(
    model_admin: admin.ModelAdmin,
    request: HttpRequest,
    objects: list[Any],
    step: Step,
    *,
    action: str | None,
) -> TemplateResponse | None:
    """Render the intermediate page asking for a reason, or apply the step to each object
    (on POST with ``apply``). Returns None when done, as an admin action does."""
    if request.method == "POST" and request.POST.get("apply"):
        form = step.form(request.POST)
        if form.is_valid():
            done = 0
            for obj in objects:
                try:
                    step.apply(request.user, obj, form.cleaned_data)  # type: ignore[arg-type]
                    done += 1
                except DomainError as exc:
                    model_admin.message_user(request, f"{obj}: {exc.detail}", messages.ERROR)
            if done:
                model_admin.message_user(
                    request, f"{step.title}: done for {done} of {len(objects)}.", messages.SUCCESS
                )
            return None
    else:
        form = step.form()
    context = {
        **model_admin.admin_site.each_context(request),
        "title": step.title,
        "form": form,
        "objects": objects,
        "action": action,
        "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        "opts": model_admin.model._meta,
        "media": model_admin.media + form.media,
    }
    return TemplateResponse(request, "admin/games/moderate.html", context)


# --- Matches ----------------------------------------------------------------------------------


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
    "abort": Step("Abort (no result)", ReasonForm, _abort),
    "adjudicate": Step("Adjudicate (award the match)", AdjudicateForm, _adjudicate),
    "seat_to_bot": Step("Replace a seat with a bot", SeatToBotForm, _seat_to_bot),
    "extend_deadline": Step("Extend the deadline", ExtendForm, _extend),
}


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = ("index", "user", "bot", "away", "timeouts_in_row", "joined_at")


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):
    change_form_template = "admin/games/match/change_form.html"
    list_display = (
        "id",
        "status",
        "players",
        "scores_text",
        "winner_team",
        "end_reason",
        "version",
        "open_reports",
        "created_at",
    )
    list_filter = (
        "status",
        "end_reason",
        ("created_at", admin.DateFieldListFilter),
        PlayerFilter,
        HasOpenReportsFilter,
        AbandonedFilter,
        "visibility",
    )
    search_fields = ("=id", "seats__user__username", "seats__user__display_name")
    date_hierarchy = "created_at"
    exclude = ("snapshot",)
    inlines = [SeatInline]
    actions = ["abort_matches", "adjudicate_match", "seat_to_bot", "extend_deadline"]

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return (
            super()
            .get_queryset(request)
            .prefetch_related("seats__user")
            .annotate(
                open_report_count=Count("reports", filter=Q(reports__status=ReportStatus.OPEN))
            )
        )

    def has_moderate_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("games.moderate_match")

    @admin.display(description="players")
    def players(self, match: Match) -> str:
        return ", ".join(
            f"{s.index}:{s.user.username if s.user else (s.bot + ' bot' if s.bot else '-')}"
            for s in match.seats.all()
        )

    @admin.display(description="scores")
    def scores_text(self, match: Match) -> str:
        return f"{match.score_team0} - {match.score_team1}"

    @admin.display(description="open reports", ordering="open_report_count")
    def open_reports(self, match: Match) -> int:
        return getattr(match, "open_report_count", 0)

    # Admin actions: each asks for a reason on an intermediate page, then calls the service.

    @admin.action(description="Abort (no result)", permissions=["moderate"])
    def abort_matches(self, request: HttpRequest, queryset: QuerySet) -> Any:
        return _run_step(
            self, request, list(queryset), MATCH_STEPS["abort"], action="abort_matches"
        )

    @admin.action(description="Adjudicate (award to a team)", permissions=["moderate"])
    def adjudicate_match(self, request: HttpRequest, queryset: QuerySet) -> Any:
        step = MATCH_STEPS["adjudicate"]
        return _run_step(self, request, list(queryset), step, action="adjudicate_match")

    @admin.action(description="Replace a seat with a bot", permissions=["moderate"])
    def seat_to_bot(self, request: HttpRequest, queryset: QuerySet) -> Any:
        step = MATCH_STEPS["seat_to_bot"]
        return _run_step(self, request, list(queryset), step, action="seat_to_bot")

    @admin.action(description="Extend the deadline", permissions=["moderate"])
    def extend_deadline(self, request: HttpRequest, queryset: QuerySet) -> Any:
        step = MATCH_STEPS["extend_deadline"]
        return _run_step(self, request, list(queryset), step, action="extend_deadline")

    # The match page: seats, score sheet, move log with the full deal, record downloads.

    def get_urls(self) -> list[Any]:
        wrap = self.admin_site.admin_view
        return [
            path(
                "<int:object_id>/rounds/<int:number>/record/",
                wrap(self.round_record_view),
                name="games_match_round_record",
            ),
            path(
                "<int:object_id>/moderate/<str:step>/",
                wrap(self.moderate_view),
                name="games_match_moderate",
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
            extra["moderation_log"] = ModerationAction.objects.filter(match=match).select_related(
                "moderator"
            )
            extra["match_reports"] = Report.objects.filter(match=match).select_related(
                "reporter", "reported"
            )
            if self.has_moderate_permission(request):
                extra["moderation_steps"] = [(k, s.title) for k, s in MATCH_STEPS.items()]
        return super().change_view(request, object_id, form_url, extra)

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

    def moderate_view(self, request: HttpRequest, object_id: int, step: str) -> HttpResponse:
        if not self.has_moderate_permission(request):
            raise PermissionDenied
        match = get_object_or_404(Match, pk=object_id)
        if step not in MATCH_STEPS:
            raise PermissionDenied
        response = _run_step(self, request, [match], MATCH_STEPS[step], action=None)
        if response is None:
            return HttpResponseRedirect(reverse("admin:games_match_change", args=[match.pk]))
        return response


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):
    list_display = ("id", "match_link", "index", "user", "bot", "away", "timeouts_in_row")
    list_filter = ("away", "bot")
    search_fields = ("=match__id", "user__username", "user__display_name")
    list_select_related = ("user",)

    @admin.display(description="match", ordering="match")
    def match_link(self, seat: Seat) -> str:
        return _match_link(seat.match_id)


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ("id", "match_link", "number", "dealer", "status", "started_at", "ended_at")
    list_filter = ("status", ("started_at", admin.DateFieldListFilter))
    search_fields = ("=match__id",)

    @admin.display(description="match", ordering="match")
    def match_link(self, rnd: Round) -> str:
        return _match_link(rnd.match_id)


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

    @admin.display(description="match", ordering="match")
    def match_link(self, move: Move) -> str:
        return _match_link(move.match_id)


# --- Reports ----------------------------------------------------------------------------------


def _dismiss(user: User, report: Report, data: dict[str, Any]) -> Any:
    return moderation.report_dismiss(moderator=user, report_id=report.pk, reason=data["reason"])


def _warn(user: User, report: Report, data: dict[str, Any]) -> Any:
    return moderation.report_warn(moderator=user, report_id=report.pk, reason=data["reason"])


def _sanction(user: User, report: Report, data: dict[str, Any]) -> Any:
    return moderation.report_sanction(
        moderator=user,
        report_id=report.pk,
        kind=data["kind"],
        ends_at=data.get("ends_at"),
        reason=data["reason"],
    )


REPORT_STEPS = {
    "dismiss": Step("Dismiss the report", ReasonForm, _dismiss),
    "warn": Step("Uphold: warn the reported player", ReasonForm, _warn),
    "sanction": Step("Uphold: suspend or ban the reported player", SanctionForm, _sanction),
}


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    """The queue of reports (open ones by default), oldest first, with the linked match."""

    list_display = (
        "id",
        "created_at",
        "match_link",
        "seat",
        "reported_link",
        "reporter",
        "reason",
        "comment_short",
        "status",
    )
    list_filter = (ReportStatusFilter, "reason", ("created_at", admin.DateFieldListFilter))
    search_fields = ("=match__id", "reported__username", "reporter__username", "comment")
    list_select_related = ("reported", "reporter")
    readonly_fields = (
        "match_link",
        "seat",
        "reporter",
        "reported_link",
        "reason",
        "comment",
        "status",
        "created_at",
        "resolved_at",
        "resolved_by",
        "sanction",
    )
    fields = readonly_fields
    actions = ["dismiss_reports", "warn_reported", "sanction_reported"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # A report changes only through the actions; its page is read-only.
        return obj is None and super().has_change_permission(request)

    def has_sanction_permission(self, request: HttpRequest) -> bool:
        return self.has_change_permission(request) and request.user.has_perm(
            "accounts.add_sanction"
        )

    @admin.display(description="match", ordering="match")
    def match_link(self, report: Report) -> str:
        return _match_link(report.match_id)

    @admin.display(description="reported", ordering="reported__username")
    def reported_link(self, report: Report) -> str:
        return _user_link(report.reported)

    @admin.display(description="comment")
    def comment_short(self, report: Report) -> str:
        return report.comment[:80]

    @admin.action(description="Dismiss", permissions=["change"])
    def dismiss_reports(self, request: HttpRequest, queryset: QuerySet) -> Any:
        step = REPORT_STEPS["dismiss"]
        return _run_step(self, request, list(queryset), step, action="dismiss_reports")

    @admin.action(description="Uphold: warn the reported player", permissions=["sanction"])
    def warn_reported(self, request: HttpRequest, queryset: QuerySet) -> Any:
        return _run_step(
            self, request, list(queryset), REPORT_STEPS["warn"], action="warn_reported"
        )

    @admin.action(
        description="Uphold: suspend or ban the reported player", permissions=["sanction"]
    )
    def sanction_reported(self, request: HttpRequest, queryset: QuerySet) -> Any:
        step = REPORT_STEPS["sanction"]
        return _run_step(self, request, list(queryset), step, action="sanction_reported")


# --- The moderation log -------------------------------------------------------------------------


@admin.register(ModerationAction)
class ModerationActionAdmin(ReadOnlyAdmin):
    """Append-only: nobody, not even a superuser, edits or deletes it here."""

    list_display = (
        "created_at",
        "moderator",
        "kind",
        "match_link",
        "target_user",
        "reason_short",
        "changes_text",
    )
    list_filter = ("kind", ("created_at", admin.DateFieldListFilter))
    search_fields = ("=match__id", "target_user__username", "moderator__username", "reason")
    list_select_related = ("moderator", "target_user")
    fields = (
        "created_at",
        "moderator",
        "kind",
        "reason",
        "match_link",
        "target_user",
        "report",
        "sanction",
        "changes_text",
    )
    readonly_fields = fields

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        return {}  # not even delete_selected

    @admin.display(description="match", ordering="match")
    def match_link(self, entry: ModerationAction) -> str:
        return _match_link(entry.match_id)

    @admin.display(description="reason")
    def reason_short(self, entry: ModerationAction) -> str:
        return entry.reason[:80]

    @admin.display(description="what changed")
    def changes_text(self, entry: ModerationAction) -> str:
        return format_html_join(
            ", ", "{}: {}", ((k, json.dumps(v, default=str)) for k, v in entry.changes.items())
        )
