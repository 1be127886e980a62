"""Moderation writes: player reports, sanctions and staff actions on matches.

Staff change games through the one path (architecture.md): each match action locks the match
with ``services.match_lock`` and changes it with the same helpers moves use
(``state_store`` / ``version_bump`` / ``match_finish`` / ``seat_replace_with_bot``), so the
version bumps and the Celery follow-ups are scheduled on commit exactly as for a move. Every
moderation service writes one ``ModerationAction`` row in the same transaction: the change
and its log entry commit together or not at all.
"""

from moderation.services.avatars import avatar_remove
from moderation.services.flags import flag_settle, one_sided_flag
from moderation.services.matches import (
    match_abort,
    match_adjudicate,
    match_deadline_extend,
    match_seat_to_bot,
)
from moderation.services.reports import (
    report_avatar_remove,
    report_create,
    report_dismiss,
    report_sanction,
    report_uphold,
    report_warn,
)
from moderation.services.sanctions import sanction_apply, sanction_lift

__all__ = [
    "avatar_remove",
    "flag_settle",
    "match_abort",
    "match_adjudicate",
    "match_deadline_extend",
    "match_seat_to_bot",
    "one_sided_flag",
    "report_avatar_remove",
    "report_create",
    "report_dismiss",
    "report_sanction",
    "report_uphold",
    "report_warn",
    "sanction_apply",
    "sanction_lift",
]
