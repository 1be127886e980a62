"""A team leaving: withdrawing itself (``DELETE /tournaments/{id}/entries/mine``)."""

from __future__ import annotations

from django.db import transaction

from accounts.models import User
from core import clock
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
