"""Sanctions: applying one (a suspended or banned player's seats go away or are vacated, and
the pending rematches of their finished matches are called off) and lifting it."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import Sanction, SanctionKind, User, sanction_end_refusal
from core import events
from core.errors import InvalidInput
from games import services
from games.models import MatchStatus, Seat
from moderation.errors import (
    AlreadySettled,
    SanctionNotFound,
    UnknownChoice,
    UserNotFound,
)
from moderation.events import SanctionApplied
from moderation.models import ModerationKind
from moderation.services.log import action_log, require_reason
from players.services.rematch import rematches_cancel_for


def sanction_start(
    *, moderator: User, user: User, kind: str, reason: str, ends_at: datetime | None
) -> tuple[Sanction, dict[str, Any]]:
    if kind not in SanctionKind.values:
        raise UnknownChoice(_("Unknown sanction %(kind)r.") % {"kind": kind})
    now = timezone.now()
    refusal = sanction_end_refusal(kind, ends_at)
    if refusal is not None:
        raise InvalidInput(
            refusal,
            errors=[{"field": "ends_at", "code": "invalid", "detail": _("Must be in the future.")}],
        )
    if kind != SanctionKind.SUSPEND:
        ends_at = None  # a warning has no duration; a ban has no end
    sanction = Sanction.objects.create(
        user=user, kind=kind, reason=reason, starts_at=now, ends_at=ends_at, created_by=moderator
    )
    changes: dict[str, Any] = {"sanction": kind, "ends_at": ends_at}
    if kind != SanctionKind.WARN:
        # A pending rematch cannot seat them: it is called off, the table's others told. First,
        # so that a rematch an accept started while this waited for its lock has its new
        # match among the seats sent away below.
        rematches = rematches_cancel_for(user_id=user.pk)
        changes["seats"] = _seats_of_sanctioned(user)
        if rematches:
            changes["rematches_cancelled"] = rematches
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
    reason = require_reason(reason)
    user = User.objects.select_for_update().filter(pk=user_id).first()
    if user is None:
        raise UserNotFound()
    sanction, changes = sanction_start(
        moderator=moderator, user=user, kind=kind, reason=reason, ends_at=ends_at
    )
    action_log(
        moderator=moderator,
        kind=ModerationKind.SANCTION_APPLY,
        reason=reason,
        target_user=user,
        sanction=sanction,
        changes=changes,
    )
    events.emit(SanctionApplied(user_id=user.pk, sanction_id=sanction.pk, kind=kind))
    return sanction


@transaction.atomic
def sanction_lift(*, moderator: User, sanction_id: int, reason: str) -> Sanction:
    """End a sanction early. Restores access only; away seats stay away until the player
    comes back."""
    reason = require_reason(reason)
    sanction = Sanction.objects.select_for_update().filter(pk=sanction_id).first()
    if sanction is None:
        raise SanctionNotFound()
    if sanction.lifted_at is not None:
        raise AlreadySettled(_("That sanction is already lifted."))
    sanction.lifted_at = timezone.now()
    sanction.lifted_by = moderator
    sanction.save(update_fields=["lifted_at", "lifted_by"])
    action_log(
        moderator=moderator,
        kind=ModerationKind.SANCTION_LIFT,
        reason=reason,
        target_user=sanction.user,
        sanction=sanction,
        changes={"lifted_at": [None, sanction.lifted_at]},
    )
    return sanction
