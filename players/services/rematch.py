"""A rematch: the same table again after a finished match, once every human has accepted."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from core import clock
from games import services as games
from games.errors import MatchNotFinished
from games.models import MatchStatus
from players.errors import RematchExpired, RematchStarted
from players.models import Rematch
from players.selectors.social import human_seats

# How long a proposal waits for every human to accept.
REMATCH_SECONDS = 600


@transaction.atomic
def rematch_accept(*, user: User, match_id: int) -> tuple[Rematch, bool]:
    """Propose a rematch of a finished match (the first call) or accept the proposal (the
    others); accepting twice changes nothing. The last human to accept starts the new match:
    same users in the same seats, bots of the same levels, same options, the first dealer
    rotated by one. Returns the proposal and whether this call made it.

    The finished match's row is locked, so two players accepting at once serialise and the
    table starts exactly once (the one-to-one ``new_match`` is the last guard).
    """
    games.require_in_good_standing(user)
    match = games.match_lock(match_id)
    seat = games.require_seat(match, user)
    if match.status != MatchStatus.FINISHED:
        raise MatchNotFinished(_("Only a finished match can be played again."))
    now = clock.now()
    rematch = Rematch.objects.filter(match=match).first()
    created = rematch is None
    if rematch is None:
        rematch = Rematch.objects.create(
            match=match,
            proposed_by=user,
            accepted_seats=[seat.index],
            created_at=now,
            expires_at=now + timedelta(seconds=REMATCH_SECONDS),
        )
    elif rematch.new_match_id is not None:
        raise RematchStarted()
    elif now >= rematch.expires_at:
        raise RematchExpired()
    elif seat.index not in rematch.accepted_seats:
        rematch.accepted_seats = [*rematch.accepted_seats, seat.index]
        rematch.save(update_fields=["accepted_seats"])
    if set(human_seats(match)) <= set(rematch.accepted_seats) and rematch.new_match_id is None:
        new = games.match_create_again(source=match, creator=rematch.proposed_by)
        rematch.new_match = new
        rematch.save(update_fields=["new_match"])
    return rematch, created
