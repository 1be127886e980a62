"""Who may change a match: the row lock every write starts with, and the checks on the caller."""

from __future__ import annotations

from accounts.errors import standing_refusal
from accounts.models import User
from accounts.selectors import sanction_active_for
from games.errors import MatchNotActive, MatchNotFound, NotAPlayer
from games.models import Match, MatchStatus, Seat, Visibility


def match_lock(match_id: int) -> Match:
    """The match row, locked until the end of the transaction (every write starts here)."""
    try:
        return Match.objects.select_for_update().get(pk=match_id)
    except Match.DoesNotExist:
        raise MatchNotFound() from None


def seat_of(match: Match, user: User) -> Seat | None:
    return next((s for s in match.seat_list() if s.user_id == user.pk), None)


def require_seat(match: Match, user: User) -> Seat:
    seat = seat_of(match, user)
    if seat is None:
        if match.visibility == Visibility.PRIVATE:
            raise MatchNotFound()  # a private match's existence is not revealed
        raise NotAPlayer()
    return seat


def require_in_good_standing(user: User) -> None:
    """A suspended or banned player may not create, join or play (their bearer tokens are
    refused already; this also covers session logins and direct service calls)."""
    from accounts.authentication import checked_in_this_request

    if checked_in_this_request(user):
        return  # the bearer token was checked against sanctions moments ago
    sanction = sanction_active_for(user)
    if sanction is not None:
        raise standing_refusal(sanction)


def require_active(match: Match) -> None:
    if match.status != MatchStatus.ACTIVE:
        raise MatchNotActive()


def match_lock_seated(*, match_id: int, user: User) -> tuple[Match, Seat]:
    """The locked match and the caller's seat in it: the start of every player's move."""
    require_in_good_standing(user)
    match = match_lock(match_id)
    return match, require_seat(match, user)
