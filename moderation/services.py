"""Moderation writes: player reports, sanctions and staff actions on matches.

Staff change games through the one path (architecture.md): each match action locks the match
with ``services.match_lock`` and changes it with the same helpers moves use
(``state_store`` / ``version_bump`` / ``match_finish`` / ``seat_replace_with_bot``), so the
version bumps and the Celery follow-ups are scheduled on commit exactly as for a move. Every
moderation service writes one ``ModerationAction`` row in the same transaction: the change
and its log entry commit together or not at all.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import Sanction, SanctionKind, User, sanction_end_refusal
from core.errors import InvalidInput
from games import services
from games.errors import MatchNotFound
from games.models import BotLevel, EndReason, Match, MatchStatus, Seat, Visibility
from games.selectors import is_automatic
from games.services.scheduling import FollowUp
from moderation.errors import (
    AlreadySettled,
    DuplicateReport,
    MatchNotRunning,
    NoHumanOnTheClock,
    ReportNotFound,
    SanctionNotFound,
    UnknownChoice,
    UserNotFound,
)
from moderation.models import ModerationAction, ModerationKind, Report, ReportReason, ReportStatus

MAX_EXTENSION = timedelta(days=30)


def _log(
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


def _require_reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise InvalidInput(
            "A moderation action needs a reason.",
            errors=[{"field": "reason", "code": "required", "detail": "Give a reason."}],
        )
    return reason


def _seat_field_error(detail: str) -> InvalidInput:
    return InvalidInput(detail, errors=[{"field": "seat", "code": "invalid", "detail": detail}])


# --- Reports from players ---------------------------------------------------------------------


@transaction.atomic
def report_create(
    *, reporter: User, match_id: int, seat: int, reason: str, comment: str = ""
) -> Report:
    """A player reports the human in ``seat`` of a match they may see.

    The match row is locked so two identical reports racing serialise; the partial unique
    constraint (one open report per reporter, reported player and match) is the last guard.
    """
    match = services.match_lock(match_id)
    mine = Seat.objects.filter(match=match, user=reporter).first()
    if mine is None and match.visibility == Visibility.PRIVATE:
        raise MatchNotFound()  # a private match's existence is not revealed
    if reason not in ReportReason.values:
        raise InvalidInput(
            f"Unknown reason {reason!r}.",
            errors=[{"field": "reason", "code": "invalid_choice", "detail": "Unknown reason."}],
        )
    target = Seat.objects.filter(match=match, index=seat).select_related("user").first()
    if target is None or target.user is None:
        raise _seat_field_error("That seat holds no player to report.")
    if target.user_id == reporter.pk:
        raise _seat_field_error("You cannot report yourself.")
    if Report.objects.filter(
        match=match, reporter=reporter, reported=target.user, status=ReportStatus.OPEN
    ).exists():
        raise DuplicateReport()
    try:
        with transaction.atomic():
            return Report.objects.create(
                match=match,
                seat=seat,
                reporter=reporter,
                reported=target.user,
                reason=reason,
                comment=comment,
            )
    except IntegrityError:  # pragma: no cover - the lock above makes this unreachable
        raise DuplicateReport() from None


def _open_report(report_id: int) -> Report:
    report = Report.objects.select_for_update().filter(pk=report_id).first()
    if report is None:
        raise ReportNotFound()
    if report.status != ReportStatus.OPEN:
        raise AlreadySettled("That report is already resolved.")
    return report


def _resolve(report: Report, *, moderator: User, status: str, sanction: Sanction | None) -> None:
    report.status = status
    report.resolved_at = timezone.now()
    report.resolved_by = moderator
    report.sanction = sanction
    report.save(update_fields=["status", "resolved_at", "resolved_by", "sanction"])


@transaction.atomic
def report_dismiss(*, moderator: User, report_id: int, reason: str) -> Report:
    reason = _require_reason(reason)
    report = _open_report(report_id)
    _resolve(report, moderator=moderator, status=ReportStatus.DISMISSED, sanction=None)
    _log(
        moderator=moderator,
        kind=ModerationKind.REPORT_DISMISS,
        reason=reason,
        match=report.match,
        target_user=report.reported,
        report=report,
        changes={"status": [ReportStatus.OPEN, ReportStatus.DISMISSED]},
    )
    return report


@transaction.atomic
def report_uphold(
    *,
    moderator: User,
    report_id: int,
    kind: str,
    reason: str,
    ends_at: datetime | None = None,
) -> Report:
    """Uphold a report with a sanction (warn, suspend until ``ends_at``, or ban) on the
    reported player; one log row records both."""
    reason = _require_reason(reason)
    report = _open_report(report_id)
    sanction, changes = _sanction_start(
        moderator=moderator, user=report.reported, kind=kind, reason=reason, ends_at=ends_at
    )
    _resolve(report, moderator=moderator, status=ReportStatus.UPHELD, sanction=sanction)
    _log(
        moderator=moderator,
        kind=ModerationKind.REPORT_UPHOLD,
        reason=reason,
        match=report.match,
        target_user=report.reported,
        report=report,
        sanction=sanction,
        changes={"status": [ReportStatus.OPEN, ReportStatus.UPHELD], **changes},
    )
    return report


def report_warn(*, moderator: User, report_id: int, reason: str) -> Report:
    return report_uphold(
        moderator=moderator, report_id=report_id, kind=SanctionKind.WARN, reason=reason
    )


def report_sanction(
    *, moderator: User, report_id: int, kind: str, reason: str, ends_at: datetime | None = None
) -> Report:
    return report_uphold(
        moderator=moderator, report_id=report_id, kind=kind, reason=reason, ends_at=ends_at
    )


# --- Sanctions ------------------------------------------------------------------------------


def _sanction_start(
    *, moderator: User, user: User, kind: str, reason: str, ends_at: datetime | None
) -> tuple[Sanction, dict[str, Any]]:
    if kind not in SanctionKind.values:
        raise UnknownChoice(f"Unknown sanction {kind!r}.")
    now = timezone.now()
    refusal = sanction_end_refusal(kind, ends_at)
    if refusal is not None:
        raise InvalidInput(
            refusal,
            errors=[{"field": "ends_at", "code": "invalid", "detail": "Must be in the future."}],
        )
    if kind != SanctionKind.SUSPEND:
        ends_at = None  # a warning has no duration; a ban has no end
    sanction = Sanction.objects.create(
        user=user, kind=kind, reason=reason, starts_at=now, ends_at=ends_at, created_by=moderator
    )
    changes: dict[str, Any] = {"sanction": kind, "ends_at": ends_at}
    if kind != SanctionKind.WARN:
        changes["seats"] = _seats_of_sanctioned(user)
    return sanction, changes


def _seats_of_sanctioned(user: User) -> list[dict[str, Any]]:
    """A suspended or banned player's seats: in running matches they go ``away`` (a bot
    plays their turns, so the other players' game goes on); in waiting matches they are
    vacated. Each match changes through the usual lock, version bump and follow-ups.

    Nothing is restored when the sanction ends: the player takes an away seat back with
    ``back`` or a move, as after timeouts.
    """
    changed = []
    match_ids = (
        Seat.objects.filter(user=user, match__status__in=[MatchStatus.WAITING, MatchStatus.ACTIVE])
        .order_by("match_id")
        .values_list("match_id", flat=True)
    )
    for match_id in list(match_ids):
        match = services.match_lock(match_id)  # in id order, as every multi-match writer must
        seat = match.seats.filter(user=user).first()
        if seat is None:
            continue
        before = match.version
        if match.status == MatchStatus.ACTIVE:
            if seat.away:
                continue
            seat.away = True
            seat.save(update_fields=["away"])
            state = match.load_state()
            assert state is not None
            services.state_store(match, state)  # a bot takes the turn at once if it is theirs
            what = "away"
        elif match.status == MatchStatus.WAITING:
            seat.user = None
            seat.save(update_fields=["user"])
            if not match.seats.filter(user__isnull=False).exists():
                match.status = MatchStatus.ABORTED
                match.finished_at = timezone.now()
            services.version_bump(match)
            what = "vacated"
        else:
            continue
        changed.append(
            {
                "match": match.pk,
                "seat": seat.index,
                "seat_now": what,
                "version": [before, match.version],
            }
        )
    return changed


@transaction.atomic
def sanction_apply(
    *,
    moderator: User,
    user_id: int,
    kind: str,
    reason: str,
    ends_at: datetime | None = None,
) -> Sanction:
    """Warn, suspend (until ``ends_at``) or ban a user. Suspension and ban refuse their
    tokens at once (accounts.authentication) and send their running seats away."""
    reason = _require_reason(reason)
    user = User.objects.select_for_update().filter(pk=user_id).first()
    if user is None:
        raise UserNotFound()
    sanction, changes = _sanction_start(
        moderator=moderator, user=user, kind=kind, reason=reason, ends_at=ends_at
    )
    _log(
        moderator=moderator,
        kind=ModerationKind.SANCTION_APPLY,
        reason=reason,
        target_user=user,
        sanction=sanction,
        changes=changes,
    )
    return sanction


@transaction.atomic
def sanction_lift(*, moderator: User, sanction_id: int, reason: str) -> Sanction:
    """End a sanction early. Restores access only; away seats stay away until the player
    comes back."""
    reason = _require_reason(reason)
    sanction = Sanction.objects.select_for_update().filter(pk=sanction_id).first()
    if sanction is None:
        raise SanctionNotFound()
    if sanction.lifted_at is not None:
        raise AlreadySettled("That sanction is already lifted.")
    sanction.lifted_at = timezone.now()
    sanction.lifted_by = moderator
    sanction.save(update_fields=["lifted_at", "lifted_by"])
    _log(
        moderator=moderator,
        kind=ModerationKind.SANCTION_LIFT,
        reason=reason,
        target_user=sanction.user,
        sanction=sanction,
        changes={"lifted_at": [None, sanction.lifted_at]},
    )
    return sanction


# --- Match actions --------------------------------------------------------------------------


def _match_changes(match: Match, before: dict[str, Any]) -> dict[str, Any]:
    after = _match_fields(match)
    return {k: [before[k], after[k]] for k in after if before[k] != after[k]}


def _match_fields(match: Match) -> dict[str, Any]:
    return {
        "status": match.status,
        "winner_team": match.winner_team,
        "end_reason": match.end_reason,
        "version": match.version,
        "to_act": match.to_act,
        "deadline": match.deadline,
    }


def _not_running(match: Match) -> MatchNotRunning:
    return MatchNotRunning()


@transaction.atomic
def match_abort(*, moderator: User, match_id: int, reason: str) -> Match:
    """End a waiting or active match with no result (status ``aborted``, no winner)."""
    reason = _require_reason(reason)
    match = services.match_lock(match_id)
    if match.status not in (MatchStatus.WAITING, MatchStatus.ACTIVE):
        raise _not_running(match)
    before = _match_fields(match)
    services.match_finish(match, winner_team=None, reason="", status=MatchStatus.ABORTED)
    _log(
        moderator=moderator,
        kind=ModerationKind.MATCH_ABORT,
        reason=reason,
        match=match,
        changes=_match_changes(match, before),
    )
    return match


@transaction.atomic
def match_adjudicate(*, moderator: User, match_id: int, winner_team: int, reason: str) -> Match:
    """Award an active match to ``winner_team`` (end reason ``adjudicated``)."""
    reason = _require_reason(reason)
    if winner_team not in (0, 1):
        raise InvalidInput(
            "The winner is team 0 or team 1.",
            errors=[{"field": "winner_team", "code": "invalid", "detail": "0 or 1."}],
        )
    match = services.match_lock(match_id)
    services.require_active(match)
    before = _match_fields(match)
    services.match_finish(match, winner_team=winner_team, reason=EndReason.ADJUDICATED)
    _log(
        moderator=moderator,
        kind=ModerationKind.MATCH_ADJUDICATE,
        reason=reason,
        match=match,
        changes=_match_changes(match, before),
    )
    return match


@transaction.atomic
def match_seat_to_bot(
    *, moderator: User, match_id: int, seat: int, reason: str, level: str = BotLevel.EASY
) -> Match:
    """Hand a seat of a waiting or active match to a bot for good."""
    reason = _require_reason(reason)
    if level not in BotLevel.values:
        raise UnknownChoice(f"Unknown bot level {level!r}.")
    if seat not in range(4):
        raise _seat_field_error("A seat is 0 to 3.")
    match = services.match_lock(match_id)
    if match.status not in (MatchStatus.WAITING, MatchStatus.ACTIVE):
        raise _not_running(match)
    before = _match_fields(match)
    old = match.seats.select_related("user").get(index=seat)
    old_holder = {"user": old.user_id, "bot": old.bot or None, "away": old.away}
    services.seat_replace_with_bot(match=match, seat_index=seat, level=level)
    changes = _match_changes(match, before)
    changes["seat"] = seat
    changes["holder"] = [old_holder, {"user": None, "bot": level, "away": False}]
    _log(
        moderator=moderator,
        kind=ModerationKind.SEAT_TO_BOT,
        reason=reason,
        match=match,
        target_user=old.user,
        changes=changes,
    )
    return match


@transaction.atomic
def match_deadline_extend(*, moderator: User, match_id: int, by: timedelta, reason: str) -> Match:
    """Give the human whose turn it is more time: the deadline moves ``by`` later (from
    now if it had already passed). The bump makes any scheduled expiry a no-op and a new one
    is scheduled for the new deadline."""
    reason = _require_reason(reason)
    if by <= timedelta(0) or by > MAX_EXTENSION:
        raise InvalidInput(
            "Extend by more than nothing and at most 30 days.",
            errors=[{"field": "by", "code": "invalid", "detail": "Out of range."}],
        )
    match = services.match_lock(match_id)
    services.require_active(match)
    seat = match.seats.get(index=match.to_act) if match.to_act is not None else None
    if seat is None or is_automatic(seat) or match.deadline is None:
        raise NoHumanOnTheClock()
    before = _match_fields(match)
    match.deadline = max(match.deadline, timezone.now()) + by
    services.version_bump(match, FollowUp.DEADLINE)
    _log(
        moderator=moderator,
        kind=ModerationKind.DEADLINE_EXTEND,
        reason=reason,
        match=match,
        target_user=seat.user,
        changes={**_match_changes(match, before), "seat": seat.index},
    )
    return match
