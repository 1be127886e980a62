"""The accounts admin: users with their standing, and device tokens. Sanctions are applied
and lifted by moderation (``moderation.admin.accounts``), which also adds the player's
statistics and links to their matches and reports to the user page."""

from typing import Any

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.db.models import Exists, OuterRef, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from accounts import selectors
from core.admin import ReadOnlyInline

from .models import AuthToken, Sanction, User


class SanctionedFilter(admin.SimpleListFilter):
    title = _("sanctioned now")
    parameter_name = "sanctioned"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", str(_("Yes"))), ("no", str(_("No")))]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        active = Exists(Sanction.objects.active().filter(user=OuterRef("pk")))
        if self.value() == "yes":
            return queryset.filter(active)
        if self.value() == "no":
            return queryset.exclude(active)
        return queryset


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
        *(BaseUserAdmin.fieldsets or ()),
        ("Player", {"fields": ("display_name",)}),
    )
    inlines = [SanctionInline]

    @admin.display(description=_("sanction"))
    def sanction_now(self, user: User) -> str:
        sanction = selectors.sanction_active_for(user)
        if sanction is None:
            return "-"
        if sanction.ends_at is None:
            return "banned"
        return f"suspended until {sanction.ends_at:%Y-%m-%d %H:%M}"


@admin.register(AuthToken)
class AuthTokenAdmin(admin.ModelAdmin):
    list_display = ("id", "user", "device", "created_at", "last_used_at", "revoked_at")
    list_filter = ("revoked_at",)
    search_fields = ("user__username",)
    readonly_fields = ("key_hash", "created_at")
