from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from .models import AuthToken, User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    list_display = ("username", "display_name", "is_active", "is_staff", "date_joined")
    search_fields = ("username", "display_name", "email")
    fieldsets = (*BaseUserAdmin.fieldsets, ("Player", {"fields": ("display_name",)}))


@admin.register(AuthToken)
class AuthTokenAdmin(admin.ModelAdmin):
    list_display = ("id", "user", "device", "created_at", "last_used_at", "revoked_at")
    list_filter = ("revoked_at",)
    search_fields = ("user__username",)
    readonly_fields = ("key_hash", "created_at")
