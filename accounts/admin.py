"""The accounts admin: users with their standing, and device tokens. Sanctions are applied
and lifted by moderation (``moderation.admin.accounts``), which also adds the player's
statistics and links to their matches and reports to the user page.

A deleted account shows as deleted (a column, a filter, the date) under its anonymous
username, ``deleted-<id>``: nothing of who it was is left to show (``account_delete``)."""

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


class DeletedFilter(admin.SimpleListFilter):
    title = _("deleted account")
    parameter_name = "deleted"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [("yes", _("Yes")), ("no", _("No"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        if self.value() == "yes":
            return queryset.filter(deleted_at__isnull=False)
        if self.value() == "no":
            return queryset.filter(deleted_at__isnull=True)
        return queryset


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    list_display = (
        "username",
        "display_name",
        "is_active",
        "is_staff",
        "sanction_now",
        "deleted",
        "date_joined",
    )
    list_filter = (*BaseUserAdmin.list_filter, SanctionedFilter, DeletedFilter)
    search_fields = ("username", "display_name", "email")
    fieldsets = (
        *(BaseUserAdmin.fieldsets or ()),
        ("Player", {"fields": ("display_name", "language", "email_verified_at", "deleted_at")}),
    )
    inlines = [SanctionInline]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        # Here, not in readonly_fields, which moderation's subclass replaces.
        # The address changes only through its mailed code (accounts.recovery): one typed here
        # would be used for password resets without anyone having proved it.
        return (
            *super().get_readonly_fields(request, obj),
            "email",
            "email_verified_at",
            "deleted_at",
        )

    @admin.display(description=_("deleted"), boolean=True, ordering="deleted_at")
    def deleted(self, user: User) -> bool:
        return user.deleted_at is not None

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
