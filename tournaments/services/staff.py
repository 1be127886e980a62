"""What staff do to a tournament (the admin calls these): edit before the start, cancel,
disqualify or replace a team. Each writes its moderation log row in the same transaction."""

from __future__ import annotations

import secrets
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from core import clock
from core.errors import InvalidInput
from games.models import MatchStatus
from games.services import match_finish, match_lock, require_seatable
from moderation.models import ModerationKind
from moderation.services.log import action_log, require_reason
from tournaments.errors import AlreadyEntered, EntryNotFound, SettingRefused, TournamentOver
from tournaments.models import (
    HOLDING,
    Entry,
    EntryStatus,
    Membership,
    Pairing,
    Tournament,
    TournamentStatus,
)
from tournaments.services.registration import settings_refusals, tournament_lock
from tournaments.services.results import team_forfeit_current
from tournaments.services.rounds import tournament_end

EDITABLE = (
    "name",
    "ruleset",
    "target",
    "turn_seconds",
    "public",
    "capacity",
    "starts_at",
    "swiss_rounds",
    "round_seconds",
)


def _over(tournament: Tournament) -> bool:
    return tournament.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)


@transaction.atomic
def tournament_edit(
    *, moderator: User, tournament_id: int, fields: dict[str, Any], reason: str
) -> Tournament:
    """Change a tournament's settings while registration is open."""
    reason = require_reason(reason)
    tournament = tournament_lock(tournament_id)
    if tournament.status != TournamentStatus.REGISTRATION:
        raise InvalidInput(_("A tournament can be edited only before it starts."))
    changes = {}
    for name, value in fields.items():
        if name not in EDITABLE:
            raise InvalidInput(_("That field cannot be edited."))
        before = getattr(tournament, name)
        if before != value:
            changes[name] = [before, value]
            setattr(tournament, name, value)
    refusals = settings_refusals(
        format=tournament.format,
        ruleset=tournament.ruleset,
        capacity=tournament.capacity,
        starts_at=tournament.starts_at,
        round_seconds=tournament.round_seconds,
        swiss_rounds=tournament.swiss_rounds,
        new="starts_at" in changes,
    )
    if refusals:
        raise SettingRefused(*refusals[0])
    if not tournament.public and not tournament.invite_code:
        tournament.invite_code = secrets.token_urlsafe(9)  # made private: its code
    tournament.save()
    action_log(
        moderator=moderator,
        kind=ModerationKind.TOURNAMENT_EDIT,
        reason=reason,
        changes={"tournament": tournament.pk, **changes},
    )
    return tournament


@transaction.atomic
def tournament_cancel(*, moderator: User, tournament_id: int, reason: str) -> Tournament:
    """End a tournament with no winner. Its matches in play are aborted (after this commits,
    each under its own lock)."""
    reason = require_reason(reason)
    tournament = tournament_lock(tournament_id)
    if _over(tournament):
        raise TournamentOver()
    in_play = list(
        Pairing.objects.filter(
            tournament=tournament, winner__isnull=True, match__isnull=False
        ).values_list("match_id", flat=True)
    )
    status_before = tournament.status
    tournament_end(tournament, status=TournamentStatus.CANCELLED, note="cancelled by staff")
    action_log(
        moderator=moderator,
        kind=ModerationKind.TOURNAMENT_CANCEL,
        reason=reason,
        changes={"tournament": tournament.pk, "status": [status_before, tournament.status]},
    )
    ids = [m for m in in_play if m is not None]
    transaction.on_commit(lambda: _abort_all(ids), robust=True)
    return tournament


def _abort_all(match_ids: list[int]) -> None:
    for match_id in match_ids:
        _abort(match_id)


@transaction.atomic
def _abort(match_id: int) -> None:
    match = match_lock(match_id)
    if match.status == MatchStatus.ACTIVE:
        match_finish(match, winner_team=None, reason="", status=MatchStatus.ABORTED)


def _entry(tournament: Tournament, entry_id: int) -> Entry:
    entry = Entry.objects.select_for_update().filter(pk=entry_id, tournament=tournament).first()
    if entry is None:
        raise EntryNotFound()
    return entry


@transaction.atomic
def team_disqualify(*, moderator: User, tournament_id: int, entry_id: int, reason: str) -> Entry:
    """The team is out: before the start its place is freed; once running it loses the match
    it has in play and is paired no more. It can win nothing."""
    reason = require_reason(reason)
    tournament = tournament_lock(tournament_id)
    if _over(tournament):
        raise TournamentOver()
    entry = _entry(tournament, entry_id)
    before = entry.status
    entry.status = EntryStatus.DISQUALIFIED
    entry.left_at = clock.now()
    entry.save(update_fields=["status", "left_at"])
    # The memberships stay: a disqualified player does not enter this tournament again.
    if tournament.status == TournamentStatus.RUNNING:
        team_forfeit_current(tournament, entry)
    action_log(
        moderator=moderator,
        kind=ModerationKind.TEAM_DISQUALIFY,
        reason=reason,
        target_user=entry.player,
        changes={"tournament": tournament.pk, "entry": entry.pk, "status": [before, entry.status]},
    )
    return entry


@transaction.atomic
def team_replace(
    *,
    moderator: User,
    tournament_id: int,
    entry_id: int,
    swaps: list[tuple[User, User]],
    reason: str,
) -> Entry:
    """Each (leaving, joining) pair: ``joining`` takes ``leaving``'s place in the team, from
    its next match (a match in play keeps its players). Both players swapped replace the team
    with another pair; all or none of the swaps happen."""
    reason = require_reason(reason)
    tournament = tournament_lock(tournament_id)
    if _over(tournament):
        raise TournamentOver()
    entry = _entry(tournament, entry_id)
    if entry.status not in HOLDING:
        raise InvalidInput(_("That player does not hold a place in this team."))
    for leaving, joining in swaps:
        held = Membership.objects.filter(tournament=tournament, user=leaving, entry=entry)
        if not held.exists():
            raise InvalidInput(_("That player does not hold a place in this team."))
        require_seatable(joining)
        held.delete()
        try:
            with transaction.atomic():
                Membership.objects.create(tournament=tournament, user=joining, entry=entry)
        except IntegrityError:
            raise AlreadyEntered() from None
        if entry.player_id == leaving.pk:
            entry.player = joining
        else:
            entry.partner = joining
        action_log(
            moderator=moderator,
            kind=ModerationKind.TEAM_REPLACE,
            reason=reason,
            target_user=leaving,
            changes={
                "tournament": tournament.pk,
                "entry": entry.pk,
                "player": [leaving.username, joining.username],
            },
        )
    entry.save(update_fields=["player", "partner"])
    return entry
