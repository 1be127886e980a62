"""The moderation log: append-only, readable by moderators, editable by nobody."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.utils.html import format_html_join
from django.utils.translation import gettext_lazy as _

from core.admin import ReadOnlyAdmin
from games.admin.links import match_link
from moderation.models import ModerationAction


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

    @admin.display(description=_("match"), ordering="match")
    def match_link(self, entry: ModerationAction) -> str:
        return match_link(entry.match_id)

    @admin.display(description=_("reason"))
    def reason_short(self, entry: ModerationAction) -> str:
        return entry.reason[:80]

    @admin.display(description=_("what changed"))
    def changes_text(self, entry: ModerationAction) -> str:
        return format_html_join(
            ", ", "{}: {}", ((k, json.dumps(v, default=str)) for k, v in entry.changes.items())
        )
