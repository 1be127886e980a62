from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.db.models import Exists, OuterRef, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join

from accounts import selectors

from .models import AuthToken, Sanction, SanctionKind, User


class SanctionedFilter(admin.SimpleListFilter):
    title = "sanctioned now"
    parameter_name = "sanctioned"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", "Yes"), ("no", "No")]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        active = Exists(Sanction.objects.active().filter(user=OuterRef("pk")))
        if self.value() == "yes":
            return queryset.filter(active)
        if self.value() == "no":
            return queryset.exclude(active)
        return queryset


class ReadOnlyInline(admin.TabularInline):
    """Rows shown on a parent's page that staff can read but never add, change or delete
    there (changes go through the services and their own admin pages)."""

    extra = 0
    can_delete = False

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return self.fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SanctionInline(ReadOnlyInline):
    model = Sanction
    fk_name = "user"
    fields = ("kind", "starts_at", "ends_at", "lifted_at", "reason", "created_by")


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    list_display = (
        "username",
        "display_name",
        "is_active",
        "is_staff",
        "sanction_now",
        "date_joined",
    )
    list_filter = (*BaseUserAdmin.list_filter, SanctionedFilter)
    search_fields = ("username", "display_name", "email")
    fieldsets = (
        *BaseUserAdmin.fieldsets,
        ("Player", {"fields": ("display_name",)}),
        ("Moderation", {"fields": ("player_statistics", "moderation_links")}),
    )
    readonly_fields = ("player_statistics", "moderation_links")
    inlines = [SanctionInline]

    @admin.display(description="sanction")
    def sanction_now(self, user: User) -> str:
        sanction = selectors.sanction_active_for(user)
        if sanction is None:
            return "-"
        if sanction.ends_at is None:
            return "banned"
        return f"suspended until {sanction.ends_at:%Y-%m-%d %H:%M}"

    @admin.display(description="statistics")
    def player_statistics(self, user: User) -> str:
        if user.pk is None:
            return "-"
        stats = selectors.player_stats(user, moderation=True)
        return format_html_join(
            "",
            "<div>{}: <strong>{}</strong></div>",
            ((k.replace("_", " "), v) for k, v in stats.items()),
        )

    @admin.display(description="see")
    def moderation_links(self, user: User) -> str:
        if user.pk is None:
            return "-"
        matches = reverse("admin:games_match_changelist") + f"?player={user.pk}"
        reports = reverse("admin:games_report_changelist") + f"?status=all&q={user.username}"
        return format_html(
            '<a href="{}">matches</a> &middot; <a href="{}">reports</a>', matches, reports
        )


class SanctionAddForm(forms.ModelForm):
    class Meta:
        model = Sanction
        fields = ("user", "kind", "ends_at", "reason")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("kind") == SanctionKind.SUSPEND:
            ends_at = data.get("ends_at")
            if ends_at is None or ends_at <= timezone.now():
                self.add_error("ends_at", "A suspension needs an end in the future.")
        return data


@admin.register(Sanction)
class SanctionAdmin(admin.ModelAdmin):
    """Sanctions are applied and lifted through games.moderation (which logs them and sends
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

    def get_form(self, request: HttpRequest, obj: Any = None, **kwargs: Any) -> Any:
        if obj is None:
            kwargs["form"] = SanctionAddForm
        return super().get_form(request, obj, **kwargs)

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

    @admin.display(boolean=True, description="active")
    def active(self, sanction: Sanction) -> bool:
        return Sanction.objects.active().filter(pk=sanction.pk).exists()

    def save_model(self, request: HttpRequest, obj: Sanction, form: Any, change: bool) -> None:
        from games import moderation

        assert not change  # the change page is read-only
        created = moderation.sanction_apply(
            moderator=request.user,  # type: ignore[arg-type]
            user_id=obj.user_id,
            kind=obj.kind,
            reason=obj.reason,
            ends_at=obj.ends_at,
        )
        obj.pk = created.pk
        obj.created_by = created.created_by
        obj.starts_at = created.starts_at

    @admin.action(description="Lift (restores access only)", permissions=["change"])
    def lift_sanctions(self, request: HttpRequest, queryset: QuerySet) -> Any:
        from games import moderation
        from games.admin import ReasonForm, Step, _run_step

        def lift(user: Any, sanction: Sanction, data: dict[str, Any]) -> Any:
            return moderation.sanction_lift(
                moderator=user, sanction_id=sanction.pk, reason=data["reason"]
            )

        step = Step("Lift the sanction", ReasonForm, lift)
        return _run_step(self, request, list(queryset), step, action="lift_sanctions")


@admin.register(AuthToken)
class AuthTokenAdmin(admin.ModelAdmin):
    list_display = ("id", "user", "device", "created_at", "last_used_at", "revoked_at")
    list_filter = ("revoked_at",)
    search_fields = ("user__username",)
    readonly_fields = ("key_hash", "created_at")
