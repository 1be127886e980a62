"""Every write to a match: humans, bots, timeouts and staff all change games through here.

One path (architecture.md): lock the match row (``select_for_update``), check the version,
run the move through the engine, append to the log, store the snapshot and bump the version,
all in one transaction; follow-up work (bot turns, deadlines) is scheduled on commit.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.errors import AccountBanned, AccountSuspended
from accounts.models import User
from games import engine, idempotency, turns
from games.dealing import commitment, deck_names, new_salt, shuffled_deck
from games.engine.observation import contract_to_dict
from games.engine.record import result_to_dict
from games.errors import (
    AlreadySeated,
    IdempotencyKeyReused,
    MatchFull,
    MatchNotActive,
    MatchNotFound,
    MatchNotWaiting,
    NotAPlayer,
    SeatTaken,
    StaleVersion,
)
from games.models import (
    Actor,
    EndReason,
    Heartbeat,
    IdempotencyRecord,
    Match,
    MatchStatus,
    Move,
    Round,
    RoundStatus,
    Seat,
    Visibility,
)

log = logging.getLogger(__name__)


def match_lock(match_id: int) -> Match:
    """The match row, locked until the end of the transaction (every write starts here)."""
    try:
        return Match.objects.select_for_update().get(pk=match_id)
    except Match.DoesNotExist:
        raise MatchNotFound() from None


def _seat_of(match: Match, user: User) -> Seat | None:
    return next((s for s in match.seat_list() if s.user_id == user.pk), None)


def _require_seat(match: Match, user: User) -> Seat:
    seat = _seat_of(match, user)
    if seat is None:
        if match.visibility == Visibility.PRIVATE:
            raise MatchNotFound()  # a private match's existence is not revealed
        raise NotAPlayer()
    return seat


def _require_in_good_standing(user: User) -> None:
    """A suspended or banned player may not create, join or play (their bearer tokens are
    refused already; this also covers session logins and direct service calls)."""
    from accounts.authentication import AccountSanctioned, checked_in_this_request
    from accounts.selectors import sanction_active_for

    if checked_in_this_request(user):
        return  # the bearer token was checked against sanctions moments ago

    sanction = sanction_active_for(user)
    if sanction is not None:
        refusal = AccountSanctioned(sanction)
        error = AccountBanned if refusal.detail.code == AccountBanned.code else AccountSuspended
        raise error(str(refusal.detail))


# --- Creating, joining, leaving ------------------------------------------------------------


@transaction.atomic
def match_create(
    *,
    creator: User,
    ruleset: str = engine.GAMERULES.name,
    target: int | None = None,
    turn_seconds: int | None = None,
    visibility: str = Visibility.PRIVATE,
    bots: dict[int, str] | None = None,
) -> Match:
    """Create a match with the creator in seat 0 and bots where asked; four filled seats
    start it at once."""
    _require_in_good_standing(creator)
    rules = engine.get_ruleset(ruleset)
    bots = bots or {}
    match = Match.objects.create(
        ruleset=rules.name,
        rules_version=rules.version,
        target=target or rules.default_target,
        turn_seconds=turn_seconds or settings.BALOOT["DEFAULT_TURN_SECONDS"],
        visibility=visibility,
        invite_code=secrets.token_urlsafe(6) if visibility == Visibility.PRIVATE else "",
        created_by=creator,
    )
    Seat.objects.bulk_create(
        [Seat(match=match, index=0, user=creator)]
        + [Seat(match=match, index=i, bot=bots.get(i, "")) for i in (1, 2, 3)]
    )
    if all(bots.get(i) for i in (1, 2, 3)):
        _start(match)
    return match


@transaction.atomic
def match_join(
    *, match_id: int, user: User, seat: int | None = None, code: str | None = None
) -> Match:
    _require_in_good_standing(user)
    match = match_lock(match_id)
    if (
        match.visibility == Visibility.PRIVATE
        and not hmac.compare_digest((code or "").encode(), match.invite_code.encode())
        and _seat_of(match, user) is None
    ):
        raise MatchNotFound()
    if match.status != MatchStatus.WAITING:
        raise MatchNotWaiting()
    if _seat_of(match, user) is not None:
        raise AlreadySeated()
    seats = match.seat_list()
    if seat is None:
        free = next((s for s in seats if s.is_empty), None)
        if free is None:
            raise MatchFull()
    else:
        free = next(s for s in seats if s.index == seat)
        if not free.is_empty:
            raise SeatTaken()
    free.user = user
    free.save(update_fields=["user"])
    if all(not s.is_empty for s in seats):
        _start(match)
    else:
        version_bump(match)
    return match


@transaction.atomic
def match_leave(*, match_id: int, user: User) -> Match:
    """Give up a seat before the match starts; the last human leaving aborts the match."""
    match = match_lock(match_id)
    seat = _require_seat(match, user)
    if match.status != MatchStatus.WAITING:
        raise MatchNotWaiting("Only a waiting match can be left; resign a started one.")
    seat.user = None
    seat.save(update_fields=["user"])
    if all(s.user_id is None for s in match.seat_list()):
        match.status = MatchStatus.ABORTED
        match.finished_at = timezone.now()
    version_bump(match)
    return match


@transaction.atomic
def match_resign(*, match_id: int, user: User) -> Match:
    match = match_lock(match_id)
    seat = _require_seat(match, user)
    require_active(match)
    match_finish(match, winner_team=1 - seat.team, reason=EndReason.RESIGNED)
    return match


def match_finish(
    match: Match,
    *,
    winner_team: int | None,
    reason: str,
    status: MatchStatus = MatchStatus.FINISHED,
) -> None:
    """End a locked match: by the rules, by resignation or adjudication, or aborted (no
    result). Pending bot and deadline tasks see the new version and do nothing."""
    match.status = status
    match.winner_team = winner_team
    match.end_reason = reason
    match.finished_at = timezone.now()
    match.to_act = None
    match.deadline = None
    version_bump(match)


def require_active(match: Match) -> None:
    if match.status != MatchStatus.ACTIVE:
        raise MatchNotActive()


# --- Starting and dealing ----------------------------------------------------------------------


def _start(match: Match) -> None:
    dealer = secrets.randbelow(4)  # R2: the first dealer is chosen at random
    state = engine.new_match(engine.get_ruleset(match.ruleset), dealer=dealer, target=match.target)
    match.first_dealer = dealer
    match.status = MatchStatus.ACTIVE
    match.started_at = timezone.now()
    state = _deal(match, state)
    state_store(match, state)


def _deal(match: Match, state: engine.GameState) -> engine.GameState:
    deck = shuffled_deck()
    names = deck_names(deck)
    salt = new_salt()
    number = state.round_no + 1
    digest = commitment(salt, names)
    Round.objects.create(
        match=match,
        number=number,
        dealer=state.dealer,
        deck=names,
        salt=salt,
        commitment=digest,
        scores_before=list(state.scores),
    )
    match.recent_commitments = {
        **{k: v for k, v in match.recent_commitments.items() if k == str(number - 1)},
        str(number): digest,
    }
    return engine.start_round(state, deck)


def version_bump(match: Match, follow_up: turns.FollowUp | None = None) -> None:
    match.version += 1
    match.save()
    if follow_up is not None:
        match_id, version, eta = match.pk, match.version, match.deadline
        transaction.on_commit(lambda: turns.schedule(match_id, version, follow_up, eta))


def state_store(match: Match, state: engine.GameState) -> None:
    """Save the snapshot, the denormalised turn and deadline, bump the version, and schedule
    what the next turn needs once the transaction commits."""
    match.put_state(state)
    match.deadline = None
    follow_up = None
    if match.status == MatchStatus.ACTIVE and match.to_act is not None:
        seat = match.seat_at(match.to_act)
        now = timezone.now()
        if turns.is_automatic(seat):
            match.deadline = now + timedelta(seconds=turns.BOT_GRACE_SECONDS)
            follow_up = turns.FollowUp.BOT
        else:
            match.deadline = now + timedelta(seconds=match.turn_seconds)
            follow_up = turns.FollowUp.DEADLINE
    version_bump(match, follow_up)


def _close_rounds(match: Match, before: engine.GameState, after: engine.GameState) -> None:
    now = timezone.now()
    for finished in after.history[len(before.history) :]:
        Round.objects.filter(match=match, number=finished.number).update(
            status=RoundStatus(finished.status.value),
            contract=_contract_json(finished),
            result=result_to_dict(finished.result),
            scores_after=list(finished.scores_after),
            ended_at=now,
        )


def _contract_json(finished: engine.RoundLog) -> dict[str, Any] | None:
    return contract_to_dict(finished.contract, finished.multiplier, finished.gahwa, finished.locked)


# --- Moves ------------------------------------------------------------------------------------


def move_apply(*, match: Match, seat: int, move: engine.Move, actor: str) -> Match:
    """Apply one move to a locked, active match. Raises the engine's errors unchanged, having
    written nothing."""
    before = match.load_state()
    assert before is not None
    state = engine.apply(before, seat, move)  # IllegalMove / MalformedMove -> nothing written
    match.move_count += 1
    Move.objects.create(
        match=match,
        seq=match.move_count,
        version=match.version + 1,
        round_number=before.round_no,
        seat=seat,
        actor=actor,
        payload=engine.move_to_dict(move),
    )
    _close_rounds(match, before, state)
    if state.phase is engine.Phase.DEAL:
        state = _deal(match, state)
    result = engine.outcome(state)
    if result is not None:
        match.put_state(state)
        match_finish(match, winner_team=result.winner, reason=result.reason)
        return match
    state_store(match, state)
    return match


@dataclass(frozen=True)
class MoveAnswer:
    status: int
    body: dict[str, Any]
    replayed: bool


def request_fingerprint(payload: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


@transaction.atomic
def move_submit(
    *,
    match_id: int,
    user: User,
    payload: dict[str, Any],
    expected_version: int | None,
    idempotency_key: str | None,
    render: Callable[[Match], dict[str, Any]],
) -> MoveAnswer:
    """A player's move from the API, with idempotent retries.

    The idempotency check runs under the match lock, so two retries racing with the same key
    serialise: the second sees the first's stored answer instead of playing twice.
    """
    _require_in_good_standing(user)
    match = match_lock(match_id)
    seat = _require_seat(match, user)
    fingerprint = request_fingerprint({**payload, "expected_version": expected_version})
    if idempotency_key:
        stored = IdempotencyRecord.objects.filter(
            user=user, match=match, key=idempotency_key
        ).first()
        if stored is not None and idempotency.is_expired(stored):
            # Past its TTL but not purged yet: the key is free again, as after the purge.
            stored.delete()
            stored = None
        if stored is not None:
            if stored.fingerprint != fingerprint:
                raise IdempotencyKeyReused()
            return MoveAnswer(stored.status_code, stored.body, replayed=True)
    require_active(match)
    if expected_version is not None and expected_version != match.version:
        raise StaleVersion(current_version=match.version)
    move = engine.move_from_dict(payload)
    # The player is back: their own move takes the seat back from the bot (api.md). A refused
    # move rolls this back with everything else.
    _seat_reclaim(seat)
    move_apply(match=match, seat=seat.index, move=move, actor=Actor.HUMAN)
    body = render(match)
    if idempotency_key:
        try:
            with transaction.atomic():
                IdempotencyRecord.objects.create(
                    user=user,
                    match=match,
                    key=idempotency_key,
                    fingerprint=fingerprint,
                    status_code=201,
                    body=body,
                )
        except IntegrityError:  # pragma: no cover - the lock above makes this unreachable
            log.warning("idempotency record raced for match %s", match.pk)
    return MoveAnswer(201, body, replayed=False)


@transaction.atomic
def seat_come_back(*, match_id: int, user: User) -> Match:
    """An away player takes their seat back from the bot (api.md "Away seats").

    While a seat is away its turns are played at once, so a player could rarely beat the bot
    to a move; this lets them return first. If it is their turn they get a fresh deadline.
    """
    _require_in_good_standing(user)
    match = match_lock(match_id)
    seat = _require_seat(match, user)
    require_active(match)
    if not _seat_reclaim(seat):
        return match
    state = match.load_state()
    assert state is not None
    state_store(match, state)
    return match


def _seat_reclaim(seat: Seat) -> bool:
    """Clear the away flag and the timeout streak; True if there was anything to clear."""
    if not seat.away and not seat.timeouts_in_row:
        return False
    seat.away = False
    seat.timeouts_in_row = 0
    seat.save(update_fields=["away", "timeouts_in_row"])
    return True


def seat_replace_with_bot(*, match: Match, seat_index: int, level: str) -> Seat:
    """Hand a seat of a locked match to a bot for good (moderation; an all-bot table)."""
    seat = match.seat_at(seat_index)
    seat.user = None
    seat.bot = level
    seat.away = False
    seat.timeouts_in_row = 0
    seat.save(update_fields=["user", "bot", "away", "timeouts_in_row"])
    if match.status == MatchStatus.ACTIVE:
        state = match.load_state()
        assert state is not None
        state_store(match, state)
    elif match.status == MatchStatus.WAITING and all(not s.is_empty for s in match.seat_list()):
        _start(match)
    else:
        version_bump(match)
    return seat


# --- Bots and timeouts (called by games.tasks) ----------------------------------------------
#
# A bot thinks (up to its time budget) outside any transaction: holding the match row lock, or
# on SQLite the database's only write lock, while it searches would stall every other write.
# So a turn is settled in two steps: read the match at the version the task was scheduled for
# and decide, with no lock held; then lock, and apply the decision only if the match is still
# at that version. Every change to a match bumps its version, so an unchanged version means the
# decision was made on exactly the state it is applied to.


@dataclass(frozen=True)
class AutomaticMove:
    seat: int
    move: engine.Move


def _automatic_move(match: Match, state: engine.GameState, seat: int, level: str) -> engine.Move:
    """A bot's choice for ``seat``, from that seat's observation only."""
    from games.engine.bots import NormalConfig, choose_move

    obs = engine.observation(state, seat)
    # Seeded per decision so a replayed task makes the same choice; the seed is keyed with a
    # server secret, so no client can recompute a bot's choices and narrow down its hand.
    rng = turns.decision_rng(match.pk, match.version)
    return choose_move(
        level,
        obs,
        rng,
        normal_config=NormalConfig(budget=settings.BALOOT["BOT_TIME_BUDGET"]),
        ruleset=state.ruleset,
    )


def _turn_at(match: Match | None, version: int) -> Seat | None:
    """The seat to act if ``match`` is active and still at ``version``, else None: a task for
    a deleted match, a duplicate, or a turn someone already played changes nothing."""
    if match is None or match.version != version or match.status != MatchStatus.ACTIVE:
        return None
    return match.seat_at(match.to_act) if match.to_act is not None else None


def _is_expired(match: Match, seat: Seat) -> bool:
    return (
        not turns.is_automatic(seat)
        and match.deadline is not None
        and match.deadline <= timezone.now()
    )


def automatic_move_decide(
    *, match_id: int, expected_version: int, timeout: bool
) -> AutomaticMove | None:
    """Decide, without a transaction or a lock, the move for the turn at ``expected_version``:
    a bot (or away) seat's move, or with ``timeout`` the move for a human turn whose deadline
    has passed. None when there is nothing to decide."""
    match = Match.objects.filter(pk=match_id).first()
    seat = _turn_at(match, expected_version)
    if match is None or seat is None:
        return None
    if timeout:
        if not _is_expired(match, seat):
            return None
        level = turns.TIMEOUT_BOT_LEVEL
    else:
        if not turns.is_automatic(seat):
            return None
        level = seat.bot or turns.AWAY_BOT_LEVEL
    state = match.load_state()
    assert state is not None
    return AutomaticMove(seat.index, _automatic_move(match, state, seat.index, level))


def bot_turn_play(*, match_id: int, expected_version: int) -> bool:
    """Play the bot (or away) seat whose turn it was at ``expected_version``.

    Returns False, changing nothing, when the match has moved on: the task was a duplicate,
    or the sweep or a human got there first.
    """
    decided = automatic_move_decide(
        match_id=match_id, expected_version=expected_version, timeout=False
    )
    return decided is not None and _bot_move_commit(match_id, expected_version, decided)


def _lock_decided_turn(
    match_id: int, version: int, decided: AutomaticMove
) -> tuple[Match, Seat] | None:
    """The locked match and the seat to act, if the match is still at the version the
    decision was made for and it is still that seat's turn; else None."""
    match = Match.objects.select_for_update().filter(pk=match_id).first()
    seat = _turn_at(match, version)
    if match is None or seat is None or seat.index != decided.seat:
        return None
    return match, seat


@transaction.atomic
def _bot_move_commit(match_id: int, version: int, decided: AutomaticMove) -> bool:
    locked = _lock_decided_turn(match_id, version, decided)
    if locked is None or not turns.is_automatic(locked[1]):
        return False
    match, seat = locked
    move_apply(match=match, seat=seat.index, move=decided.move, actor=Actor.BOT)
    return True


def turn_expire(*, match_id: int, expected_version: int) -> bool:
    """A human turn's deadline passed: play a legal move for the seat (actor ``timeout``),
    and after ``AWAY_AFTER_TIMEOUTS`` in a row hand the seat to a bot until the player moves.

    Returns False, changing nothing, if the turn was played or the deadline moved meanwhile.
    """
    decided = automatic_move_decide(
        match_id=match_id, expected_version=expected_version, timeout=True
    )
    return decided is not None and _timeout_move_commit(match_id, expected_version, decided)


@transaction.atomic
def _timeout_move_commit(match_id: int, version: int, decided: AutomaticMove) -> bool:
    locked = _lock_decided_turn(match_id, version, decided)
    if locked is None or not _is_expired(*locked):
        return False
    match, seat = locked
    seat.timeouts_in_row += 1
    seat.away = seat.timeouts_in_row >= settings.BALOOT["AWAY_AFTER_TIMEOUTS"]
    seat.save(update_fields=["timeouts_in_row", "away"])
    move_apply(match=match, seat=seat.index, move=decided.move, actor=Actor.TIMEOUT)
    return True


def heartbeat_record(*, name: str) -> None:
    """Note that a periodic job (the deadline sweep) has just completed; /healthz reads it."""
    # One UPDATE every sweep; the row is created only the first time.
    now = timezone.now()
    if not Heartbeat.objects.filter(name=name).update(at=now):
        Heartbeat.objects.get_or_create(name=name, defaults={"at": now})
