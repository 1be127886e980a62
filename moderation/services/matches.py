"""Staff actions on a match: abort, adjudicate, hand a seat to a bot, extend the deadline.

Each locks the match with ``services.match_lock`` and changes it with the same helpers moves
use, so the version bumps and the follow-ups are scheduled on commit exactly as for a move."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from core.errors import InvalidInput
from games import services
from games.models import BotLevel, EndReason, Match, MatchStatus
from games.selectors import is_automatic
from games.services.scheduling import FollowUp
from moderation.errors import (
    MatchNotRunning,
    NoHumanOnTheClock,
    UnknownChoice,
)
from moderation.models import ModerationKind
from moderation.services.log import action_log, require_reason, seat_field_error

MAX_EXTENSION = timedelta(days=30)


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
    reason = require_reason(reason)
    match = services.match_lock(match_id)
    if match.status not in (MatchStatus.WAITING, MatchStatus.ACTIVE):
        raise _not_running(match)
    before = _match_fields(match)
    services.match_finish(match, winner_team=None, reason="", status=MatchStatus.ABORTED)
    action_log(
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
    reason = require_reason(reason)
    if winner_team not in (0, 1):
        raise InvalidInput(
            _("The winner is team 0 or team 1."),
            errors=[{"field": "winner_team", "code": "invalid", "detail": _("0 or 1.")}],
        )
    match = services.match_lock(match_id)
    services.require_active(match)
    before = _match_fields(match)
    services.match_finish(match, winner_team=winner_team, reason=EndReason.ADJUDICATED)
    action_log(
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
    reason = require_reason(reason)
    if level not in BotLevel.values:
        raise UnknownChoice(_("Unknown bot level %(level)r.") % {"level": level})
    if seat not in range(4):
        raise seat_field_error(_("A seat is 0 to 3."))
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
    action_log(
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
    reason = require_reason(reason)
    if by <= timedelta(0) or by > MAX_EXTENSION:
        raise InvalidInput(
            _("Extend by more than nothing and at most 30 days."),
            errors=[{"field": "by", "code": "invalid", "detail": _("Out of range.")}],
        )
    match = services.match_lock(match_id)
    services.require_active(match)
    seat = match.seats.get(index=match.to_act) if match.to_act is not None else None
    if seat is None or is_automatic(seat) or match.deadline is None:
        raise NoHumanOnTheClock()
    before = _match_fields(match)
    match.deadline = max(match.deadline, timezone.now()) + by
    services.version_bump(match, FollowUp.DEADLINE)
    action_log(
        moderator=moderator,
        kind=ModerationKind.DEADLINE_EXTEND,
        reason=reason,
        match=match,
        target_user=seat.user,
        changes={**_match_changes(match, before), "seat": seat.index},
    )
    return match
