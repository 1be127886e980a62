"""Quick play: asking for a table, cancelling, and seating waiting players four at a time.

Placement (``matchmaking_place``) takes the waiting tickets of one ruleset and turn speed,
oldest first. Each in turn is the *anchor* of a table: the candidates are the other waiting
players whose rating lies within the anchor's band around the anchor's rating (the band
widens with the anchor's wait: ``players.selectors.matchmaking.band_for``, 3 ordinal points
plus 1 per 5 s waited, at most 30), nearest rating first. The first three of them among whom
nobody blocks anybody (either way, the anchor included) complete the table. When no such
three exist and the anchor asked for bots and has waited ``bots_after_seconds``, the
largest blocking-free group of willing candidates (players who asked for bots too; a
player who did not is never seated with bots) sits with normal bots in the empty seats.

The four are split into teams as evenly as ratings allow: of the three ways to pair them,
the one with the smallest difference between the two teams' rating sums (a bot counts as
``BOT_ORDINAL``). The anchor takes seat 0 with their partner in seat 2. The match is private
(its players know it from ``GET /matchmaking`` and their inbox; outsiders do not see it) and
starts at once, through ``games.services.matches.match_create_table``; its ``MatchStarted``
event tells each player on ``/ws/v1/me`` and by push. A pass starts at most
``TABLES_PER_PASS`` tables, the oldest anchors' first, to keep its transaction short.

Race-freedom (every ticket placed once, no player seated twice):

- PostgreSQL: the pass reads waiting tickets with ``SELECT ... FOR UPDATE SKIP LOCKED``.
  Concurrent passes (every ``POST /matchmaking`` runs one, so does beat) each lock a
  disjoint set and seat players only from theirs; a ticket another pass holds is skipped, not
  waited for, and is placed by that pass or a later one. A ticket changes status only under
  its row lock (cancelling takes it too, waiting for a pass that holds it, then sees
  ``placed``). The partial unique index on waiting tickets keeps one open ticket per player.
- SQLite has no row locks, and Django ignores ``select_for_update`` there. It is still
  race-free because the settings open every transaction with ``BEGIN IMMEDIATE``
  (``transaction_mode``): the database's one write lock is taken when the pass's
  transaction begins, before it reads the tickets, and held to its commit. Two passes, or a
  pass and a cancel, therefore run one after the other, each reading what the other
  committed; readers (WAL) never see a half-placed table.
"""

from __future__ import annotations

import logging
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from datetime import datetime
from itertools import combinations

from django.db import DatabaseError, IntegrityError, transaction

from accounts.models import Sanction, User
from core import clock
from core.errors import DomainError
from games import engine
from games.models import BotLevel, Visibility
from games.services import require_in_good_standing
from games.services.matches import match_create_table
from players.errors import AlreadyQueued, NoTicket, TicketPlaced
from players.models import Ticket, TicketStatus
from players.models.ratings import DEFAULT_MU, DEFAULT_SIGMA
from players.selectors.blocks import blocked_pairs
from players.selectors.matchmaking import band_for, waited_seconds
from players.selectors.ratings import ordinals

log = logging.getLogger(__name__)

BOT_LEVEL = BotLevel.NORMAL
# What a bot weighs when teams are balanced: an unrated player's ordinal.
BOT_ORDINAL = DEFAULT_MU - 3 * DEFAULT_SIGMA
# How many of the nearest candidates a table is looked for among (C(12, 3) = 220 tries).
CANDIDATES = 12
# The most waiting tickets one pass reads (and locks) for one ruleset and speed.
PASS_LIMIT = 1000
# The most tables one pass starts: each costs a deal and a few dozen writes, all under the
# pass's locks (on SQLite the database's one write lock), so a crowd is seated a few tables
# per transaction rather than in one long one that every other writer waits behind. The
# oldest tickets' tables go first; beat's sweep runs passes until a pass has less to do.
TABLES_PER_PASS = 4


# --- Asking and cancelling ------------------------------------------------------------------


def ticket_request(
    *, user: User, ruleset: str, turn_seconds: int, bots_after_seconds: int | None
) -> Ticket:
    """``POST /matchmaking``: a waiting ticket, then a placement pass at once, so that the
    fourth player of a table is answered with it placed."""
    ticket = ticket_create(
        user=user,
        ruleset=ruleset,
        turn_seconds=turn_seconds,
        bots_after_seconds=bots_after_seconds,
    )
    # Its own transaction, after the ticket's commit: a pass inside the ticket's transaction
    # would see no other request's uncommitted ticket, and hold the lock for longer.
    try:
        matchmaking_place(ruleset=ticket.ruleset, turn_seconds=ticket.turn_seconds)
    except DatabaseError:
        # The ticket is safe; beat's pass seats it.
        log.exception("placement after ticket %s failed", ticket.pk)
    ticket.refresh_from_db()
    return ticket


@transaction.atomic
def ticket_create(
    *, user: User, ruleset: str, turn_seconds: int, bots_after_seconds: int | None
) -> Ticket:
    """A waiting ticket for ``user``; one at a time (``already_queued``).

    Sitting in other matches, waiting or active, does not stop a player asking:
    correspondence players sit in many at once, and a quick-play table never waits (it
    starts full), so a ticket never holds a seat."""
    require_in_good_standing(user)
    rules = engine.get_ruleset(ruleset)
    if Ticket.objects.filter(user=user, status=TicketStatus.WAITING).exists():
        raise AlreadyQueued()
    try:
        with transaction.atomic():
            return Ticket.objects.create(
                user=user,
                ruleset=rules.name,
                turn_seconds=turn_seconds,
                bots_after_seconds=bots_after_seconds,
                rating=ordinals([user.pk], rules.name)[user.pk],
                created_at=clock.now(),
            )
    except IntegrityError:  # the same player's other request won the race
        raise AlreadyQueued() from None


@transaction.atomic
def ticket_cancel(*, user: User) -> Ticket:
    """``DELETE /matchmaking``: cancel the waiting ticket. A placed one is ``ticket_placed``
    (the match has started; resign it instead); a cancelled one stays cancelled (a retried
    DELETE succeeds again)."""
    ticket = (
        Ticket.objects.select_for_update().filter(user=user).order_by("-created_at", "-pk").first()
    )
    if ticket is None:
        raise NoTicket()
    if ticket.status == TicketStatus.PLACED:
        raise TicketPlaced()
    if ticket.status == TicketStatus.WAITING:
        ticket.status = TicketStatus.CANCELLED
        ticket.cancelled_at = clock.now()
        ticket.save(update_fields=["status", "cancelled_at"])
    return ticket


# --- Placement -------------------------------------------------------------------------------


@transaction.atomic
def matchmaking_place(*, ruleset: str, turn_seconds: int) -> list[int]:
    """One placement pass over the waiting tickets of ``ruleset`` at ``turn_seconds``: seat
    every table that can be made now. Returns the ids of the matches started."""
    now = clock.now()
    tickets = list(
        Ticket.objects.select_for_update(skip_locked=True)
        .filter(status=TicketStatus.WAITING, ruleset=ruleset, turn_seconds=turn_seconds)
        .order_by("created_at", "pk")[:PASS_LIMIT]
    )
    tickets = _drop_barred(tickets, now)
    if len(tickets) < 4 and not any(_bots_due(t, now) for t in tickets):
        return []
    users = User.objects.in_bulk([t.user_id for t in tickets])
    blocked = blocked_pairs(list(users))
    started: list[int] = []
    for table in tables_choose(tickets, blocked, now)[:TABLES_PER_PASS]:
        seating = teams_balance(table)
        seats: list[User | str] = [
            users[t.user_id] if t is not None else BOT_LEVEL for t in seating
        ]
        try:
            with transaction.atomic():
                match = match_create_table(
                    seats=seats,
                    ruleset=ruleset,
                    turn_seconds=turn_seconds,
                    visibility=Visibility.PRIVATE,
                )
                placed = Ticket.objects.filter(
                    pk__in=[t.pk for t in table if t is not None], status=TicketStatus.WAITING
                ).update(status=TicketStatus.PLACED, match=match, placed_at=now)
                # Under the row locks taken above nothing else can have moved them.
                assert placed == sum(t is not None for t in table)
        except DomainError as exc:  # sanctioned since the check above: the next pass drops it
            log.warning("table not started: %s", exc)
            continue
        started.append(match.pk)
    return started


def matchmaking_sweep() -> int:
    """Beat: passes for every ruleset and speed someone waits for (bands have widened, bots
    may be due), until one starts fewer than ``TABLES_PER_PASS`` tables. Returns the number
    of matches started."""
    queues = list(
        Ticket.objects.filter(status=TicketStatus.WAITING)
        .values_list("ruleset", "turn_seconds")
        .distinct()
        .order_by()
    )
    started = 0
    for ruleset, turn_seconds in queues:
        while True:
            try:
                now_started = len(matchmaking_place(ruleset=ruleset, turn_seconds=turn_seconds))
            except DatabaseError:
                log.exception("placement of %s at %ss failed", ruleset, turn_seconds)
                break
            started += now_started
            if now_started < TABLES_PER_PASS:
                break
    return started


def _drop_barred(tickets: list[Ticket], now: datetime) -> list[Ticket]:
    """Cancel the locked tickets of players who may not play now (suspended, banned, account
    deleted); the others, in their order."""
    ids = {t.user_id for t in tickets}
    # Sanctions run on the wall clock (accounts), not on the turn rules' clock.
    barred = set(
        Sanction.objects.active().filter(user_id__in=ids).values_list("user_id", flat=True)
    ) | set(User.objects.filter(pk__in=ids, is_active=False).values_list("pk", flat=True))
    if not barred:
        return tickets
    Ticket.objects.filter(
        pk__in=[t.pk for t in tickets if t.user_id in barred], status=TicketStatus.WAITING
    ).update(status=TicketStatus.CANCELLED, cancelled_at=now)
    return [t for t in tickets if t.user_id not in barred]


def _bots_due(ticket: Ticket, now: datetime) -> bool:
    return (
        ticket.bots_after_seconds is not None
        and waited_seconds(ticket, now) >= ticket.bots_after_seconds
    )


def tables_choose(
    tickets: Sequence[Ticket], blocked: set[frozenset[int]], now: datetime
) -> list[list[Ticket | None]]:
    """The tables to seat (each four entries, anchor first, None for a bot), from
    ``tickets`` oldest first. Pure: no query."""
    by_rating = sorted(tickets, key=lambda t: t.rating)
    ratings = [t.rating for t in by_rating]
    placed: set[int] = set()
    tables: list[list[Ticket | None]] = []
    for anchor in tickets:
        if anchor.pk in placed:
            continue
        band = band_for(waited_seconds(anchor, now))
        low = bisect_left(ratings, anchor.rating - band)
        high = bisect_right(ratings, anchor.rating + band)
        near = sorted(
            (t for t in by_rating[low:high] if t.pk != anchor.pk and t.pk not in placed),
            key=lambda t: (abs(t.rating - anchor.rating), t.created_at, t.pk),
        )
        group = _compatible(anchor, near[:CANDIDATES], 3, blocked)
        if group is None and _bots_due(anchor, now):
            willing = [t for t in near if t.bots_after_seconds is not None][:CANDIDATES]
            group = next(
                (
                    g
                    for k in (2, 1, 0)
                    if (g := _compatible(anchor, willing, k, blocked)) is not None
                ),
                None,
            )
        if group is None:
            continue
        members: list[Ticket | None] = [anchor, *group]
        placed.update(t.pk for t in members if t is not None)
        tables.append(members + [None] * (4 - len(members)))
    return tables


def _compatible(
    anchor: Ticket, candidates: Sequence[Ticket], k: int, blocked: set[frozenset[int]]
) -> list[Ticket] | None:
    """The first ``k`` of ``candidates`` (in their order of preference) such that nobody
    among them and the anchor blocks another; None if there are none."""
    for combo in combinations(candidates, k):
        users = [anchor.user_id, *(t.user_id for t in combo)]
        if not any(frozenset(pair) in blocked for pair in combinations(users, 2)):
            return list(combo)
    return None


def teams_balance(table: Sequence[Ticket | None]) -> list[Ticket | None]:
    """The four seated so that the teams (seats 0 and 2 against 1 and 3) are as even as
    ratings allow: of the three pairings, the one whose team rating sums differ least. The
    first (the anchor) keeps seat 0."""
    ratings = [t.rating if t is not None else BOT_ORDINAL for t in table]
    total = sum(ratings)

    def imbalance(partner: int) -> float:
        ours = ratings[0] + ratings[partner]
        return abs(ours - (total - ours))

    partner = min((1, 2, 3), key=lambda p: (imbalance(p), p))
    first, second = (i for i in (1, 2, 3) if i != partner)
    return [table[0], table[first], table[partner], table[second]]
