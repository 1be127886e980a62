"""The queue of flags the system raised (open ones by default, oldest first): who beat whom
(rating farming) or whose play a fair-play signal picked out with its statistic, the matches
that show it with their rounds' replays, and the actions that settle a flag (dismiss, or
uphold once acted on; a sanction is applied from the account's page)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.admin.links import match_link, user_link
from games.models import Round
from moderation import services as moderation
from moderation.admin.reports import ReportStatusFilter
from moderation.admin.steps import ReasonForm, Step, run_step
from moderation.models import Flag, FlagKind


def _dismiss(user: User, flag: Flag, data: dict[str, Any]) -> Any:
    return moderation.flag_settle(
        moderator=user, flag_id=flag.pk, upheld=False, reason=data["reason"]
    )


def _uphold(user: User, flag: Flag, data: dict[str, Any]) -> Any:
    return moderation.flag_settle(
        moderator=user, flag_id=flag.pk, upheld=True, reason=data["reason"]
    )


FLAG_STEPS = {
    "dismiss": Step(_("Dismiss the flag"), ReasonForm, _dismiss),
    "uphold": Step(_("Uphold the flag (acted on)"), ReasonForm, _uphold),
}


@admin.register(Flag)
class FlagAdmin(admin.ModelAdmin):
    list_display = ("id", "created_at", "kind", "ruleset", "match_link", "accounts", "status")
    list_filter = (ReportStatusFilter, "kind", ("created_at", admin.DateFieldListFilter))
    search_fields = (
        "=match__id",
        "evidence__winner__username",
        "evidence__loser__username",
        "subjects__username",
    )
    readonly_fields = (
        "kind",
        "ruleset",
        "match_link",
        "accounts",
        "statistic_text",
        "evidence_matches",
        "status",
        "created_at",
        "resolved_at",
        "resolved_by",
    )
    fields = readonly_fields
    actions = ["dismiss_flags", "uphold_flags"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Flag]:
        return (
            super()
            .get_queryset(request)
            .prefetch_related("evidence__winner", "evidence__loser", "subjects", "matches")
            .distinct()
        )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # A flag changes only through the actions; its page is read-only.
        return obj is None and super().has_change_permission(request)

    @admin.display(description=_("match"), ordering="match")
    def match_link(self, flag: Flag) -> str:
        return match_link(flag.match_id)

    @admin.display(description=_("accounts"))
    def accounts(self, flag: Flag) -> SafeString:
        if flag.kind != FlagKind.ONE_SIDED_RESULTS:
            subjects = sorted(flag.subjects.all(), key=lambda u: u.pk)
            return format_html_join(", ", "{}", ((user_link(u),) for u in subjects))
        pairs = sorted(
            {(e.winner_id, e.loser_id): (e.winner, e.loser) for e in flag.evidence.all()}.items()
        )
        return format_html_join(
            ", ", "{} beat {}", ((user_link(w), user_link(lo)) for _, (w, lo) in pairs)
        )

    @admin.display(description=_("statistic"))
    def statistic_text(self, flag: Flag) -> str:
        """The fair-play test's figures (moderation.fairplay): what share of how many
        decisions, against which honest baseline, and how significant."""
        stat = flag.statistic
        if not stat:
            return "-"
        if flag.kind == FlagKind.SHARED_HANDS:
            what = gettext("decisions fitting the partner's hand rather than the fair evaluation")
        else:
            what = gettext("late card decisions that were the analyst's best")
        return format_html(
            "{} of {} {} ({}%); {} {}%; p = {} (alpha {}); {} {}",
            stat["hits"],
            stat["trials"],
            what,
            round(100 * stat["share"], 1),
            gettext("honest baseline"),
            round(100 * stat["baseline"], 1),
            stat["p_value"],
            stat["alpha"],
            stat.get("matches", "-"),
            gettext("matches"),
        )

    @admin.display(description=_("evidence"))
    def evidence_matches(self, flag: Flag) -> SafeString:
        ids = sorted({e.match_id for e in flag.evidence.all()} | {m.pk for m in flag.matches.all()})
        rounds: dict[int, list[int]] = {i: [] for i in ids}
        for match_id, number in (
            Round.objects.filter(match_id__in=ids)
            .order_by("number")
            .values_list("match_id", "number")
        ):
            rounds[match_id].append(number)
        return format_html_join(
            "",
            "<div>{} · {} {}</div>",
            ((match_link(i), gettext("replay round"), _replay_links(i, rounds[i])) for i in ids),
        )

    @admin.action(description=_("Dismiss"), permissions=["change"])
    def dismiss_flags(self, request: HttpRequest, queryset: QuerySet) -> Any:
        step = FLAG_STEPS["dismiss"]
        return run_step(self, request, list(queryset), step, action="dismiss_flags")

    @admin.action(description=_("Uphold (acted on)"), permissions=["change"])
    def uphold_flags(self, request: HttpRequest, queryset: QuerySet) -> Any:
        step = FLAG_STEPS["uphold"]
        return run_step(self, request, list(queryset), step, action="uphold_flags")


def _replay_links(match_id: int, numbers: list[int]) -> SafeString:
    return format_html_join(
        " ",
        '<a href="{}">{}</a>',
        ((reverse("admin:games_match_round_replay", args=[match_id, n]), n) for n in numbers),
    )
