"""Flags: entries of the moderators' queue that the system raises, and settling them.

``one_sided_flag`` listens to ``players.events.OneSidedResults`` (players sits below
moderation and cannot call it): a rated result after which an account has beaten the same
opponent ``BALOOT["ONE_SIDED_FLAG_WINS"]`` times or more, and in ``ONE_SIDED_FLAG_SHARE`` of
their meetings, within ``ONE_SIDED_FLAG_DAYS`` days raises one flag, those wins as evidence.
It runs in the transaction that finishes the match, like the ratings it follows.

The same evidence never raises two flags: only the wins not yet evidence for that pair of
opponents count, and a pair needs ``ONE_SIDED_FLAG_WINS`` of them (``FlagEvidence`` holds a
match once per pair, its unique constraint being the last guard: a duplicate is dropped,
never an error that would roll back the finish). So a farm that goes on raises a new flag
only after as many new wins again, and one flag covers every pair a result completed (a
team of two beating the same two is four pairs, one entry).
"""

from __future__ import annotations

from dataclasses import replace

from django.conf import settings
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
    """Flag the pairs of ``event`` with enough wins not yet evidence (one entry, those wins
    as its evidence); None if no pair has."""
    needed = settings.BALOOT["ONE_SIDED_FLAG_WINS"]
    fresh = []
    for run in event.streaks:
        known = set(
            FlagEvidence.objects.filter(
                winner_id=run.winner_id, loser_id=run.loser_id, match_id__in=run.match_ids
            ).values_list("match_id", flat=True)
        )
        new_ids = tuple(m for m in run.match_ids if m not in known)
        if len(new_ids) >= needed:
            fresh.append(replace(run, match_ids=new_ids))
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
