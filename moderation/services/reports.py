"""Reports from players, and resolving them: dismiss, or uphold with a warning or a sanction."""

from __future__ import annotations

from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.avatars.services import picture_clear, picture_discard
from accounts.models import Sanction, SanctionKind, User
from core.errors import InvalidInput
from games import services
from games.errors import MatchNotFound
from games.models import Seat, Visibility
from moderation.errors import (
    AlreadySettled,
    CannotReportSelf,
    ChatMessageNotFound,
    DuplicateReport,
    NoPicture,
    NoPictureToReport,
    NoPlayerInSeat,
    ReportNotFound,
)
from moderation.models import ModerationKind, Report, ReportReason, ReportStatus
from moderation.services.avatars import Evidence, evidence_copy, evidence_drop
from moderation.services.log import action_log, require_reason
from moderation.services.sanctions import sanction_start
from players.models import ChatMessage


def report_create(
    *,
    reporter: User,
    match_id: int,
    seat: int,
    reason: str,
    comment: str = "",
    chat_message: int | None = None,
    avatar: bool = False,
) -> Report:
    """A player reports the human in ``seat`` of a match they may see, optionally naming a
    quick-chat message that seat sent (only the table sees its chat, so only the seated may),
    or, with ``avatar``, that player's uploaded picture (a copy is kept as evidence, made
    before the transaction and deleted if the report is refused).

    The match row is locked so two identical reports racing serialise; the partial unique
    constraint (one open report per reporter, reported player and match) is the last guard.
    """
    evidence = evidence_copy(reporter=reporter, match_id=match_id, seat=seat) if avatar else None
    try:
        return _report_create(
            reporter=reporter,
            match_id=match_id,
            seat=seat,
            reason=reason,
            comment=comment,
            chat_message=chat_message,
            avatar=avatar,
            evidence=evidence,
        )
    except BaseException:
        if evidence is not None:
            picture_discard(evidence.copy)
        raise


@transaction.atomic
def _report_create(
    *,
    reporter: User,
    match_id: int,
    seat: int,
    reason: str,
    comment: str,
    chat_message: int | None,
    avatar: bool,
    evidence: Evidence | None,
) -> Report:
    if evidence is not None:
        # The picture's owner first, then the match: the order a deletion takes them (the
        # account, then its matches). A deletion that commits meanwhile is seen below (its
        # picture gone: refused, the copy deleted); one that waits for this report finds it
        # and deletes its copy (avatars.on_account_deleted).
        User.objects.select_for_update().filter(pk=evidence.owner_id).first()
    match = services.match_lock(match_id)
    mine = Seat.objects.filter(match=match, user=reporter).first()
    if mine is None and match.visibility == Visibility.PRIVATE:
        raise MatchNotFound()  # a private match's existence is not revealed
    if reason not in ReportReason.values:
        raise InvalidInput(
            _("Unknown reason %(reason)r.") % {"reason": reason},
            errors=[{"field": "reason", "code": "invalid_choice", "detail": _("Unknown reason.")}],
        )
    target = Seat.objects.filter(match=match, index=seat).select_related("user").first()
    if target is None or target.user is None:
        raise NoPlayerInSeat()
    if target.user_id == reporter.pk:
        raise CannotReportSelf()
    message = None
    if chat_message is not None:
        message = ChatMessage.objects.filter(
            pk=chat_message, match=match, seat=seat, sender_id=target.user_id
        ).first()
        if message is None or mine is None:
            raise ChatMessageNotFound()
    if avatar and (
        evidence is None
        or target.user_id != evidence.owner_id
        or target.user.avatar_picture.name != evidence.picture
    ):
        raise NoPictureToReport()
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
                chat_message=message,
                avatar_picture=evidence.picture if evidence else "",
                avatar_evidence=evidence.copy if evidence else "",
            )
    except IntegrityError:  # pragma: no cover - the lock above makes this unreachable
        raise DuplicateReport() from None


def _open_report(report_id: int) -> Report:
    report = Report.objects.select_for_update().filter(pk=report_id).first()
    if report is None:
        raise ReportNotFound()
    if report.status != ReportStatus.OPEN:
        raise AlreadySettled(_("That report is already resolved."))
    return report


def _resolve(report: Report, *, moderator: User, status: str, sanction: Sanction | None) -> None:
    report.status = status
    report.resolved_at = timezone.now()
    report.resolved_by = moderator
    report.sanction = sanction
    report.save(update_fields=["status", "resolved_at", "resolved_by", "sanction"])


@transaction.atomic
def report_dismiss(*, moderator: User, report_id: int, reason: str) -> Report:
    reason = require_reason(reason)
    report = _open_report(report_id)
    _resolve(report, moderator=moderator, status=ReportStatus.DISMISSED, sanction=None)
    if report.avatar_evidence:
        # A picture found acceptable needs no copy kept; an upheld report keeps its evidence.
        evidence_drop(report)
        report.save(update_fields=["avatar_evidence"])
    action_log(
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
    reason = require_reason(reason)
    report = _open_report(report_id)
    sanction, changes = sanction_start(
        moderator=moderator, user=report.reported, kind=kind, reason=reason, ends_at=ends_at
    )
    _resolve(report, moderator=moderator, status=ReportStatus.UPHELD, sanction=sanction)
    action_log(
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


@transaction.atomic
def report_avatar_remove(*, moderator: User, report_id: int, reason: str) -> Report:
    """Uphold a report about a picture: the picture goes, if the player still has it (one
    changed since is not the one reported, and stays for its own report), and the report is
    upheld. One log row records both."""
    reason = require_reason(reason)
    report = _open_report(report_id)
    if not report.avatar_picture:
        raise NoPicture(_("That report is not about a picture."))
    user = User.objects.select_for_update().get(pk=report.reported_id)
    changes: dict[str, object] = {"status": [ReportStatus.OPEN, ReportStatus.UPHELD]}
    if user.avatar_picture.name == report.avatar_picture:
        picture_clear(user)
        user.save(update_fields=["avatar_picture"])
        changes["avatar_picture"] = [report.avatar_picture, None]
    _resolve(report, moderator=moderator, status=ReportStatus.UPHELD, sanction=None)
    action_log(
        moderator=moderator,
        kind=ModerationKind.AVATAR_REMOVE,
        reason=reason,
        match=report.match,
        target_user=user,
        report=report,
        changes=changes,
    )
    return report
