"""The report queue: open reports by default, oldest first, each linked to its match, with
the actions that resolve them (dismiss, warn, suspend or ban)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import FileResponse, Http404, HttpRequest
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from accounts.avatars.serving import stored_picture
from accounts.models import User
from games.admin.links import match_link, user_link
from moderation import services as moderation
from moderation.admin.steps import ReasonForm, SanctionForm, Step, run_step
from moderation.models import Report, ReportStatus


class ReportStatusFilter(admin.SimpleListFilter):
    """The queue: open reports unless another status is asked for."""

    title = _("status")
    parameter_name = "status"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [*ReportStatus.choices, ("all", str(_("All")))]

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


def _dismiss(user: User, report: Report, data: dict[str, Any]) -> Any:
    return moderation.report_dismiss(moderator=user, report_id=report.pk, reason=data["reason"])


def _warn(user: User, report: Report, data: dict[str, Any]) -> Any:
    return moderation.report_warn(moderator=user, report_id=report.pk, reason=data["reason"])


def _remove_picture(user: User, report: Report, data: dict[str, Any]) -> Any:
    return moderation.report_avatar_remove(
        moderator=user, report_id=report.pk, reason=data["reason"]
    )


def _sanction(user: User, report: Report, data: dict[str, Any]) -> Any:
    return moderation.report_sanction(
        moderator=user,
        report_id=report.pk,
        kind=data["kind"],
        ends_at=data.get("ends_at"),
        reason=data["reason"],
    )


REPORT_STEPS = {
    "dismiss": Step(_("Dismiss the report"), ReasonForm, _dismiss),
    "warn": Step(_("Uphold: warn the reported player"), ReasonForm, _warn),
    "sanction": Step(_("Uphold: suspend or ban the reported player"), SanctionForm, _sanction),
    "picture": Step(_("Uphold: remove the reported picture"), ReasonForm, _remove_picture),
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
        "chat_phrase",
        "reported_picture",
        "status",
        "created_at",
        "resolved_at",
        "resolved_by",
        "sanction",
    )
    fields = readonly_fields
    actions = ["dismiss_reports", "warn_reported", "sanction_reported", "remove_reported_pictures"]

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

    @admin.display(description=_("match"), ordering="match")
    def match_link(self, report: Report) -> str:
        return match_link(report.match_id)

    @admin.display(description=_("reported"), ordering="reported__username")
    def reported_link(self, report: Report) -> str:
        return user_link(report.reported)

    @admin.display(description=_("comment"))
    def comment_short(self, report: Report) -> str:
        return report.comment[:80]

    @admin.display(description=_("chat message"))
    def chat_phrase(self, report: Report) -> str:
        message = report.chat_message
        if message is None:
            return "-"
        return f"#{message.pk} {message.phrase} ({message.created_at:%Y-%m-%d %H:%M:%S})"

    @admin.display(description=_("reported picture"))
    def reported_picture(self, report: Report) -> str:
        # The copy kept when the report was made: what the reporter saw, whatever the player
        # has done with their picture since. Served to staff only (evidence_view).
        if not report.avatar_evidence:
            return "-"
        url = reverse("admin:moderation_report_picture", args=[report.pk])
        return format_html(
            '<img src="{}" width="128" height="128" alt="{}">', url, _("reported picture")
        )

    def get_urls(self) -> list[URLPattern]:
        picture = path(
            "<int:report_id>/picture/",
            self.admin_site.admin_view(self.evidence_view),
            name="moderation_report_picture",
        )
        return [picture, *super().get_urls()]

    def evidence_view(self, request: HttpRequest, report_id: int) -> FileResponse:
        report = Report.objects.filter(pk=report_id).first()
        if report is None or not report.avatar_evidence or not self.has_view_permission(request):
            raise Http404
        return stored_picture(report.avatar_evidence.name or "", "private, no-store")

    @admin.action(description=_("Dismiss"), permissions=["change"])
    def dismiss_reports(self, request: HttpRequest, queryset: QuerySet) -> Any:
        step = REPORT_STEPS["dismiss"]
        return run_step(self, request, list(queryset), step, action="dismiss_reports")

    @admin.action(description=_("Uphold: warn the reported player"), permissions=["sanction"])
    def warn_reported(self, request: HttpRequest, queryset: QuerySet) -> Any:
        return run_step(self, request, list(queryset), REPORT_STEPS["warn"], action="warn_reported")

    @admin.action(
        description=_("Uphold: suspend or ban the reported player"), permissions=["sanction"]
    )
    def sanction_reported(self, request: HttpRequest, queryset: QuerySet) -> Any:
        step = REPORT_STEPS["sanction"]
        return run_step(self, request, list(queryset), step, action="sanction_reported")

    @admin.action(description=_("Uphold: remove the reported picture"), permissions=["change"])
    def remove_reported_pictures(self, request: HttpRequest, queryset: QuerySet) -> Any:
        step = REPORT_STEPS["picture"]
        return run_step(self, request, list(queryset), step, action="remove_reported_pictures")
