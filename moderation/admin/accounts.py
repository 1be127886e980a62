"""Moderation on the accounts' pages: sanctions (applied and lifted through the moderation
services, which log them and send the player's running seats away), and the user page's
statistics with links to the player's matches and reports.

The Sanction model stays in ``accounts``: it is the standing that authentication checks. Its
admin lives here, with the rest of moderation.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from accounts.admin import UserAdmin
from accounts.authentication import request_user
from accounts.avatars.selectors import avatar_json
from accounts.models import Sanction, User, sanction_end_refusal
from moderation import services as moderation
from moderation.admin.steps import ReasonForm, Step, run_step
from moderation.selectors import player_stats


class SanctionAddForm(forms.ModelForm):
    class Meta:
        model = Sanction
        fields = ("user", "kind", "ends_at", "reason")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        refusal = sanction_end_refusal(data.get("kind", ""), data.get("ends_at"))
        if refusal is not None:
            self.add_error("ends_at", str(refusal))
        return data


class SanctionAdmin(admin.ModelAdmin):
    """Sanctions are applied and lifted through moderation.services (which logs them and sends
    the player's running seats away); a sanction's page is read-only."""

    list_display = (
        "id",
        "user",
        "kind",
        "starts_at",
        "ends_at",
        "active",
        "created_by",
        "lifted_at",
    )
    list_filter = ("kind", ("created_at", admin.DateFieldListFilter))
    search_fields = ("user__username", "user__display_name", "reason")
    list_select_related = ("user", "created_by")
    autocomplete_fields = ("user",)
    actions = ["lift_sanctions"]

    def get_form(
        self,
        request: HttpRequest,
        obj: Sanction | None = None,
        change: bool = False,
        **kwargs: Any,
    ) -> type[forms.ModelForm[Sanction]]:
        if obj is None:
            kwargs["form"] = SanctionAddForm
        return super().get_form(request, obj, change=change, **kwargs)

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is None:
            return SanctionAddForm.Meta.fields
        return (
            "user",
            "kind",
            "reason",
            "starts_at",
            "ends_at",
            "created_by",
            "created_at",
            "lifted_at",
            "lifted_by",
        )

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return self.get_fields(request, obj) if obj is not None else ()

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return obj is None and super().has_change_permission(request)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(boolean=True, description=_("active"))
    def active(self, sanction: Sanction) -> bool:
        return Sanction.objects.active().filter(pk=sanction.pk).exists()

    def save_model(self, request: HttpRequest, obj: Sanction, form: Any, change: bool) -> None:
        assert not change  # the change page is read-only
        created = moderation.sanction_apply(
            moderator=request_user(request),
            user_id=obj.user_id,
            kind=obj.kind,
            reason=obj.reason,
            ends_at=obj.ends_at,
        )
        obj.pk = created.pk
        obj.created_by = created.created_by
        obj.starts_at = created.starts_at

    @admin.action(description=_("Lift (restores access only)"), permissions=["change"])
    def lift_sanctions(self, request: HttpRequest, queryset: QuerySet) -> Any:
        def lift(user: Any, sanction: Sanction, data: dict[str, Any]) -> Any:
            return moderation.sanction_lift(
                moderator=user, sanction_id=sanction.pk, reason=data["reason"]
            )

        step = Step(_("Lift the sanction"), ReasonForm, lift)
        return run_step(self, request, list(queryset), step, action="lift_sanctions")


admin.site.register(Sanction, SanctionAdmin)


class ModeratedUserAdmin(UserAdmin):
    fieldsets = (
        *UserAdmin.fieldsets,
        ("Moderation", {"fields": ("avatar_shown", "player_statistics", "moderation_links")}),
    )
    readonly_fields = ("avatar_shown", "player_statistics", "moderation_links")
    actions = ["remove_pictures"]

    @admin.display(description=_("avatar"))
    def avatar_shown(self, user: User) -> str:
        shown = avatar_json(user) if user.pk is not None else None
        if shown is None:
            return "-"
        label = _("uploaded picture") if shown["kind"] == "picture" else shown["id"]
        return format_html(
            '<img src="{}" width="96" height="96" alt=""> <span>{}</span>', shown["url"], label
        )

    def has_moderate_permission(self, request: HttpRequest) -> bool:
        # Moderators only view accounts; removing a picture is moderation, not an edit.
        return request.user.has_perm("accounts.add_sanction")

    @admin.action(description=_("Remove the uploaded picture"), permissions=["moderate"])
    def remove_pictures(self, request: HttpRequest, queryset: QuerySet) -> Any:
        def remove(moderator: Any, user: User, data: dict[str, Any]) -> Any:
            return moderation.avatar_remove(
                moderator=moderator, user_id=user.pk, reason=data["reason"]
            )

        step = Step(_("Remove the uploaded picture"), ReasonForm, remove)
        return run_step(self, request, list(queryset), step, action="remove_pictures")

    @admin.display(description=_("statistics"))
    def player_statistics(self, user: User) -> str:
        if user.pk is None:
            return "-"
        stats = player_stats(user, moderation=True)
        return format_html_join(
            "",
            "<div>{}: <strong>{}</strong></div>",
            ((k.replace("_", " "), v) for k, v in stats.items()),
        )

    @admin.display(description=_("see"))
    def moderation_links(self, user: User) -> str:
        if user.pk is None:
            return "-"
        matches = reverse("admin:games_match_changelist") + f"?player={user.pk}"
        reports = reverse("admin:moderation_report_changelist") + f"?status=all&q={user.username}"
        return format_html(
            '<a href="{}">matches</a> &middot; <a href="{}">reports</a>', matches, reports
        )


admin.site.unregister(User)
admin.site.register(User, ModeratedUserAdmin)
