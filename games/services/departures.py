"""A player leaves for good: their account was deleted (``accounts.events.AccountDeleted``).

Why an event rather than a games service that deletes the account: accounts sit below games
and must not know them, yet deleting an account is an accounts matter that more apps than
games take part in (push devices, and the players app's ratings, friends and tickets), and
none of them should be able to forget it. Accounts erase what is theirs and emit the event
inside their transaction; each app listens in its ``AppConfig.ready`` and cleans up its own
rows in that same transaction, so the deletion happens entirely or not at all. This module is
games' part, subscribed in ``games.apps``:

- a seat in a **waiting** match is freed, exactly as if the player had left it
  (``match_leave``: the last human leaving aborts the match; a table whose creator left goes
  on waiting for players, ``created_by`` still pointing at the anonymous account);
- a seat in an **active** match is handed to a bot for good, the way staff do it
  (``seat_replace_with_bot``, which emits ``SeatHandedToBot``): the others' game goes on and
  the bot plays at once if it is that seat's turn;
- **finished** and aborted matches are left alone: their records and every other player's
  statistics stay as they were, the seat showing the anonymous username.

The slow part of a deletion (checking the password) ran before the transaction; this only
locks matches (in id order, as every multi-match writer must) and writes.
"""

from __future__ import annotations

from accounts.events import AccountDeleted
from accounts.models import User
from games.models import BotLevel, MatchStatus, Seat
from games.services.access import match_lock
from games.services.matches import match_leave
from games.services.moves import seat_replace_with_bot

# The bot that takes over a departed player's seat in a running match.
DEPARTED_SEAT_BOT = BotLevel.NORMAL


def seats_vacate(*, user: User) -> list[int]:
    """Free the user's waiting seats and hand their active seats to bots; the ids of the
    matches changed. Runs inside the caller's transaction."""
    changed = []
    match_ids = (
        Seat.objects.filter(user=user, match__status__in=[MatchStatus.WAITING, MatchStatus.ACTIVE])
        .order_by("match_id")
        .values_list("match_id", flat=True)
    )
    for match_id in list(match_ids):
        match = match_lock(match_id)
        seat = match.seats.filter(user=user).first()
        if seat is None:  # left meanwhile
            continue
        if match.status == MatchStatus.WAITING:
            match_leave(match_id=match.pk, user=user)
        elif match.status == MatchStatus.ACTIVE:
            seat_replace_with_bot(match=match, seat_index=seat.index, level=DEPARTED_SEAT_BOT)
        else:
            continue
        changed.append(match.pk)
    return changed


def on_account_deleted(event: AccountDeleted) -> None:
    seats_vacate(user=User.objects.get(pk=event.user_id))
