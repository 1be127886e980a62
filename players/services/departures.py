"""What the players app keeps about a user who deleted their account, cleaned up in the
deletion's own transaction (``accounts.events.AccountDeleted``; accounts cannot know this app).

Follows and blocks either way go: they say who knew or avoided whom. Open invitations from or
to the user are cancelled, a waiting quick-play ticket is cancelled, and a pending rematch
proposal of a match they sat in is cancelled, its other players told
(``players.services.rematch``), so it cannot seat an erased account in a new match. Ratings
and their history stay (other players' results were computed against them); the
leaderboards leave deleted accounts out.
"""

from __future__ import annotations

from django.db.models import Q

from accounts.events import AccountDeleted
from accounts.models import User
from core import clock, events
from games.models import MatchStatus, Seat
from games.services.departures import seats_vacate
from players.models import (
    Block,
    Follow,
    Invitation,
    InvitationStatus,
    Ticket,
    TicketStatus,
)
from players.services.rematch import rematches_cancel_for


def connect() -> None:
    events.subscribe(AccountDeleted, on_account_deleted)


def on_account_deleted(event: AccountDeleted) -> None:
    user_id, now = event.user_id, clock.now()
    Follow.objects.filter(Q(follower_id=user_id) | Q(followed_id=user_id)).delete()
    Block.objects.filter(Q(blocker_id=user_id) | Q(blocked_id=user_id)).delete()
    Invitation.objects.filter(
        Q(inviter_id=user_id) | Q(invitee_id=user_id), status=InvitationStatus.PENDING
    ).update(status=InvitationStatus.CANCELLED, responded_at=now)
    Ticket.objects.filter(user_id=user_id, status=TicketStatus.WAITING).update(
        status=TicketStatus.CANCELLED, cancelled_at=now
    )
    # Cancelled at once, the table's other humans told (the account is inactive already, so
    # it is not among them).
    rematches_cancel_for(user_id=user_id)
    # games freed the seats before this ran; a rematch that an accept started while this
    # waited for its match's lock (the accept read the account before the deletion committed)
    # has seated the account in a new match since: that seat goes to a bot too.
    if Seat.objects.filter(user_id=user_id, match__status=MatchStatus.ACTIVE).exists():
        seats_vacate(user=User.objects.get(pk=user_id))
