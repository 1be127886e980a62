"""Flags: entries of the moderators' queue that the system raises, and settling them.

``one_sided_flag`` listens to ``players.events.OneSidedResults`` (players sits below
moderation and cannot call it): a rated result that completed a streak of wins over the same
opponent (``BALOOT["ONE_SIDED_FLAG_WINS"]`` in a row within ``ONE_SIDED_FLAG_DAYS`` days)
raises one flag, the streaks' matches as evidence. It runs in the transaction that finishes
the match, like the ratings it follows.

The same evidence never raises two flags: a streak any of whose matches is already evidence
for that pair of opponents is left out (``FlagEvidence`` holds a match once per pair, its
unique constraint being the last guard: a duplicate is dropped, never an error that would
roll back the finish). So a farm that goes on raises a new flag only after
another full streak of new matches, and one flag covers every pair a result completed (a
team of two beating the same two is four pairs, one entry).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from core import events
from moderation.errors import AlreadySettled, FlagNotFound
from moderation.models import Flag, FlagEvidence, FlagKind, ModerationKind, ReportStatus
from moderation.services.log import action_log, require_reason
from players.events import OneSidedResults


def one_sided_flag(event: OneSidedResults) -> Flag | None:
    """Flag the new streaks of ``event`` (one entry), unless every one is flagged already."""
    fresh = [
        streak
        for streak in event.streaks
        if not FlagEvidence.objects.filter(
            winner_id=streak.winner_id, loser_id=streak.loser_id, match_id__in=streak.match_ids
        ).exists()
    ]
    if not fresh:
        return None
    flag = Flag.objects.create(
        kind=FlagKind.ONE_SIDED_RESULTS, ruleset=event.ruleset, match_id=event.match_id
    )
    FlagEvidence.objects.bulk_create(
        [
            FlagEvidence(flag=flag, match_id=match_id, winner_id=s.winner_id, loser_id=s.loser_id)
            for s in fresh
            for match_id in s.match_ids
        ],
        # Two results of the same players finish one after the other (their rating rows are
        # locked in the same order), so the check above sees the other's evidence; should one
        # slip through anyway, a duplicate row is dropped rather than failing the finish.
        ignore_conflicts=True,
    )
    return flag


def _open_flag(flag_id: int) -> Flag:
    flag = Flag.objects.select_for_update().filter(pk=flag_id).first()
    if flag is None:
        raise FlagNotFound()
    if flag.status != ReportStatus.OPEN:
        raise AlreadySettled(_("That flag is already settled."))
    return flag


@transaction.atomic
def flag_settle(*, moderator: User, flag_id: int, upheld: bool, reason: str) -> Flag:
    """Close an open flag: dismissed (nothing wrong), or upheld (the moderators acted on it,
    e.g. sanctioned an account from its page). One moderation log row records it."""
    reason = require_reason(reason)
    flag = _open_flag(flag_id)
    status = ReportStatus.UPHELD if upheld else ReportStatus.DISMISSED
    flag.status = status
    flag.resolved_at = timezone.now()
    flag.resolved_by = moderator
    flag.save(update_fields=["status", "resolved_at", "resolved_by"])
    action_log(
        moderator=moderator,
        kind=ModerationKind.FLAG_UPHOLD if upheld else ModerationKind.FLAG_DISMISS,
        reason=reason,
        match=flag.match,
        changes={"flag": flag.pk, "status": [ReportStatus.OPEN, status]},
    )
    return flag


def _on_one_sided_results(event: OneSidedResults) -> None:
    one_sided_flag(event)


def connect() -> None:
    events.subscribe(OneSidedResults, _on_one_sided_results)
