"""Who may change a match: the row lock every write starts with, and the checks on the caller."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Q

from accounts.errors import AccountClosed, standing_refusal
from accounts.models import Sanction, User
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


def barred_from_seats(user_ids: Iterable[int]) -> set[int]:
    """Those of ``user_ids`` who may not take a seat now: deleted or deactivated accounts, and
    players under an active suspension or ban. Two queries, read fresh (never a request's
    earlier check), so that a caller holding a match lock sees every ban or deletion that
    committed before it took the lock."""
    ids = set(user_ids)
    if not ids:
        return set()
    closed = User.objects.filter(Q(is_active=False) | Q(deleted_at__isnull=False), pk__in=ids)
    # Sanctions run on the wall clock (accounts), not on the turn rules' clock.
    sanctioned = Sanction.objects.active().filter(user_id__in=ids)
    return set(closed.values_list("pk", flat=True)) | set(
        sanctioned.values_list("user_id", flat=True)
    )


def require_seatable(user: User) -> None:
    """``user`` may take a seat now, or the refusal: a deleted or deactivated account as its
    revoked token would be (``authentication_failed``), a suspension or ban as at login.

    Every path to a seat calls this under the match lock (join, an invitation's accept, a
    rematch, quick play's table), unlike ``require_in_good_standing``, which trusts the
    request's token check: a ban or a deletion that committed while the request waited for
    the lock must still keep the player out."""
    if User.objects.filter(Q(is_active=False) | Q(deleted_at__isnull=False), pk=user.pk).exists():
        raise AccountClosed()
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
