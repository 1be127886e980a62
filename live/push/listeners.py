"""Domain events -> outbox rows, inside the transaction that emitted them.

Each listener runs in the service's write transaction (core.events), so a row commits if and
only if the change that caused it does. It writes only: reads of a few small rows, inserts,
and an ``on_commit`` that enqueues the delivery. No network here.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction

from accounts.events import AccountDeleted
from core import clock, events
from games.events import MatchFinished, MatchStarted, SeatHandedToBot, TurnBegan
from games.models import Match, MatchStatus, Move, Seat
from live.push import outbox
from live.push.kinds import EventKind
from live.push.models import Device, Notification, Preferences, notification_key
from moderation.events import SanctionApplied
from players.events import InvitationSent
from tournaments.events import TournamentFinished, TournamentMatchReady, TournamentRoundStarted
from tournaments.models import Tournament

# Turns at least this long get a reminder when 80% of their clock is gone.
REMINDER_MIN_TURN_SECONDS = 3600
REMINDER_AT_FRACTION = 0.8


def connect() -> None:
    events.subscribe(TurnBegan, on_turn_began)
    events.subscribe(MatchStarted, on_match_started)
    events.subscribe(MatchFinished, on_match_finished)
    events.subscribe(SeatHandedToBot, on_seat_handed_to_bot)
    events.subscribe(SanctionApplied, on_sanction_applied)
    events.subscribe(InvitationSent, on_invitation_sent)
    events.subscribe(AccountDeleted, on_account_deleted)
    events.subscribe(TournamentRoundStarted, on_tournament_round_started)
    events.subscribe(TournamentMatchReady, on_tournament_match_ready)
    events.subscribe(TournamentFinished, on_tournament_finished)


def notification_write(
    *,
    user_id: int,
    kind: EventKind,
    match_id: int | None,
    version: int | None,
    data: dict[str, Any] | None = None,
    due_at: datetime | None = None,
    scope: str = "",
) -> Notification | None:
    """The outbox row for ``user_id``, or None when it would reach nobody (no device, or the
    kind is muted) or was written already (the same user, kind, match and version)."""
    if not Device.objects.filter(user_id=user_id).exists():
        return None
    muted = Preferences.objects.filter(user_id=user_id).values_list("muted", flat=True).first()
    if muted and kind in muted:
        return None
    key = notification_key(
        user_id=user_id, kind=kind, match_id=match_id, version=version, scope=scope
    )
    if Notification.objects.filter(key=key).exists():
        return None
    try:
        # A savepoint: a concurrent writer of the same key loses here without spoiling the
        # service's transaction.
        with transaction.atomic():
            row = Notification.objects.create(
                key=key,
                user_id=user_id,
                kind=kind,
                match_id=match_id,
                version=version,
                data=data or {},
                due_at=due_at or clock.now(),
            )
    except IntegrityError:
        return None
    outbox.enqueue_on_commit(row)
    return row


def _own_move_gave_the_turn(event: TurnBegan) -> bool:
    """The player's own move made it their turn again (they won the trick their card ended
    and lead the next one): they are looking at the match, so no "your turn" push. A turn
    that came from anyone else's move, a bot's or a timeout's included, is pushed."""
    last = Move.objects.filter(match_id=event.match_id, version=event.version).order_by("-seq")
    move = last.values("seat", "actor").first()
    return move is not None and move["seat"] == event.seat and move["actor"] == "human"


def _reachable(user_id: int) -> bool:
    """Whether the user has a device at all: most have none, and then the listeners read
    nothing more (they run inside every move's transaction)."""
    return Device.objects.filter(user_id=user_id).exists()


def on_turn_began(event: TurnBegan) -> None:
    if not _reachable(event.user_id):
        return
    data = {"deadline": event.deadline.isoformat()}
    if not _own_move_gave_the_turn(event):
        notification_write(
            user_id=event.user_id,
            kind=EventKind.YOUR_TURN,
            match_id=event.match_id,
            version=event.version,
            data=data,
        )
    seconds = event.turn_seconds
    if seconds >= REMINDER_MIN_TURN_SECONDS:
        # Written now, due later: the sweep's indexed query on (status, due_at) finds it, and
        # delivery skips it if the turn was played meanwhile (the match moved on).
        notification_write(
            user_id=event.user_id,
            kind=EventKind.TURN_NEARLY_SPENT,
            match_id=event.match_id,
            version=event.version,
            data=data,
            due_at=event.deadline - timedelta(seconds=seconds * (1 - REMINDER_AT_FRACTION)),
        )


def _human_seats(match_id: int) -> list[tuple[int, int]]:
    """(user id, team) of every seat a person holds."""
    seats = Seat.objects.filter(match_id=match_id, user__isnull=False, bot="")
    return [(user_id, index % 2) for user_id, index in seats.values_list("user_id", "index")]


def on_match_started(event: MatchStarted) -> None:
    for user_id, _team in _human_seats(event.match_id):
        notification_write(
            user_id=user_id,
            kind=EventKind.MATCH_STARTED,
            match_id=event.match_id,
            version=event.version,
        )


def on_match_finished(event: MatchFinished) -> None:
    seats = [(u, team) for u, team in _human_seats(event.match_id) if _reachable(u)]
    if not seats:
        return
    match = Match.objects.only("score_team0", "score_team1").get(pk=event.match_id)
    scores = match.scores
    for user_id, team in seats:
        if event.status != MatchStatus.FINISHED or event.winner_team is None:
            result = "aborted"
        else:
            result = "won" if event.winner_team == team else "lost"
        notification_write(
            user_id=user_id,
            kind=EventKind.MATCH_FINISHED,
            match_id=event.match_id,
            version=event.version,
            data={
                "result": result,
                "scores": {"mine": scores[team], "theirs": scores[1 - team]},
                "end_reason": event.end_reason,
            },
        )


def on_seat_handed_to_bot(event: SeatHandedToBot) -> None:
    if event.user_id is None:
        return
    notification_write(
        user_id=event.user_id,
        kind=EventKind.SEAT_TO_BOT,
        match_id=event.match_id,
        version=event.version,
        data={"reason": event.reason},
    )


def on_sanction_applied(event: SanctionApplied) -> None:
    # Per sanction (its id stands in for the version); what and why stay in the app.
    notification_write(
        user_id=event.user_id,
        kind=EventKind.SANCTION,
        match_id=None,
        version=event.sanction_id,
    )


def on_invitation_sent(event: InvitationSent) -> None:
    # The match and its version at the invitation; who invited and to what stay in the app.
    notification_write(
        user_id=event.invitee_id,
        kind=EventKind.INVITATION,
        match_id=event.match_id,
        version=event.version,
    )


def on_account_deleted(event: AccountDeleted) -> None:
    """A deleted account's devices (push tokens identify a phone), preferences and
    notifications go. Games' listener ran first (its app comes first) and may have written a
    seat_to_bot row for them: it goes too, and its delivery, enqueued for after the commit,
    finds nothing to send."""
    Device.objects.filter(user_id=event.user_id).delete()
    Preferences.objects.filter(user_id=event.user_id).delete()
    Notification.objects.filter(user_id=event.user_id).delete()


def _tournament_notify(
    kind: EventKind,
    tournament_id: int,
    round: int | None,
    user_ids: tuple[int, ...],
    match_id: int | None = None,
) -> None:
    reachable = [u for u in user_ids if _reachable(u)]
    if not reachable:
        return
    name = Tournament.objects.filter(pk=tournament_id).values_list("name", flat=True).first()
    for user_id in reachable:
        notification_write(
            user_id=user_id,
            kind=kind,
            match_id=match_id,
            version=None,
            data={"tournament_id": tournament_id, "tournament": name or "", "round": round},
            scope=f"t{tournament_id}r{round or 0}",
        )


def on_tournament_round_started(event: TournamentRoundStarted) -> None:
    _tournament_notify(
        EventKind.TOURNAMENT_ROUND_STARTED, event.tournament_id, event.round, event.user_ids
    )


def on_tournament_match_ready(event: TournamentMatchReady) -> None:
    _tournament_notify(
        EventKind.TOURNAMENT_MATCH_READY,
        event.tournament_id,
        event.round,
        event.user_ids,
        match_id=event.match_id,
    )


def on_tournament_finished(event: TournamentFinished) -> None:
    _tournament_notify(EventKind.TOURNAMENT_FINISHED, event.tournament_id, None, event.user_ids)
