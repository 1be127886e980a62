"""The moderation log: every moderation service writes one row in its own transaction, so
the change and its log entry commit together or not at all."""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from accounts.models import Sanction, User
from core.errors import InvalidInput
from games.models import Match
from moderation.models import ModerationAction, Report


def action_log(
    *,
    moderator: User,
    kind: str,
    reason: str,
    match: Match | None = None,
    target_user: User | None = None,
    report: Report | None = None,
    sanction: Sanction | None = None,
    changes: dict[str, Any] | None = None,
) -> ModerationAction:
    return ModerationAction.objects.create(
        moderator=moderator,
        kind=kind,
        reason=reason,
        match=match,
        target_user=target_user,
        report=report,
        sanction=sanction,
        changes=changes or {},
    )


def require_reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise InvalidInput(
            _("A moderation action needs a reason."),
            errors=[{"field": "reason", "code": "required", "detail": _("Give a reason.")}],
        )
    return reason


def seat_field_error(detail: str | Promise) -> InvalidInput:
    return InvalidInput(detail, errors=[{"field": "seat", "code": "invalid", "detail": detail}])
