"""A team leaving: withdrawing itself (``DELETE /tournaments/{id}/entries/mine``)."""

from __future__ import annotations

from django.db import transaction

from accounts.events import AccountDeleted
from accounts.models import User
from core import clock, events
from core.errors import DomainError
from tournaments.errors import NotEntered, TeamDisqualified, TournamentOver
from tournaments.models import HOLDING, Entry, EntryStatus, Membership, TournamentStatus
from tournaments.services.registration import tournament_lock
from tournaments.services.results import team_forfeit_current


@transaction.atomic
def entry_withdraw(*, tournament_id: int, user: User) -> Entry:
    """Before the start the place is given up (both players may enter again); once running,
    the team withdraws, loses a match it has in play, and is paired no more. Either player of
    a team may withdraw it."""
    tournament = tournament_lock(tournament_id)
    membership = (
        Membership.objects.select_related("entry").filter(tournament=tournament, user=user).first()
    )
    if membership is None:
        raise NotEntered()
    if tournament.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
        raise TournamentOver()
    entry = membership.entry
    if entry.status == EntryStatus.WITHDRAWN:
        return entry  # a retried DELETE
    if entry.status not in HOLDING:  # disqualified: staff's word stands
        raise TeamDisqualified()
    entry.status = EntryStatus.WITHDRAWN
    entry.left_at = clock.now()
    entry.save(update_fields=["status", "left_at"])
    if tournament.status == TournamentStatus.REGISTRATION:
        Membership.objects.filter(entry=entry).delete()
    else:
        team_forfeit_current(tournament, entry)
    return entry


def on_account_deleted(event: AccountDeleted) -> None:
    """A deleted account leaves every tournament it holds a place in, as a withdrawal would
    (its team forfeits a match in play), and invitations naming it lapse. After the deletion
    commits, one tournament at a time: the deletion's transaction holds match locks, and no
    path takes a tournament lock while holding one."""
    user_id = event.user_id
    Entry.objects.filter(partner_id=user_id, status=EntryStatus.INVITED).update(
        status=EntryStatus.LAPSED, left_at=clock.now()
    )
    held = list(
        Membership.objects.filter(
            user_id=user_id,
            entry__status__in=HOLDING,
            tournament__status__in=(TournamentStatus.REGISTRATION, TournamentStatus.RUNNING),
        ).values_list("tournament_id", flat=True)
    )
    if held:
        transaction.on_commit(lambda: _withdraw_everywhere(user_id, held), robust=True)


def _withdraw_everywhere(user_id: int, tournament_ids: list[int]) -> None:
    user = User.objects.get(pk=user_id)
    for tournament_id in tournament_ids:
        try:
            entry_withdraw(tournament_id=tournament_id, user=user)
        except DomainError:
            continue  # ended, or left meanwhile


def connect() -> None:
    events.subscribe(AccountDeleted, on_account_deleted)
