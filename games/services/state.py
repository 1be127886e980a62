"""Storing a locked match's state: starting it, dealing, saving the snapshot, ending it.

Every function here takes a match the caller has locked (``access.match_lock``) inside its
transaction, and every change bumps the version, which is what makes pending bot and deadline
tasks for the old version do nothing.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from django.utils import timezone

from core import clock, events
from games import engine
from games.dealing import deck_names, new_salt, shuffled_deck
from games.engine.codec.record_format import contract_to_dict, result_to_dict
from games.events import MatchFinished, MatchStarted, TurnBegan, VersionCommitted
from games.models import BotLevel, Match, MatchStatus, Round, RoundStatus
from games.selectors.rated import rated_start_allowed
from games.selectors.seats import is_automatic, playing_level
from games.services.scheduling import FollowUp, bot_grace_seconds, schedule_on_commit


def match_start(match: Match, *, dealer: int | None = None) -> None:
    """Four filled seats: pick the first dealer, deal round 1 and start the clock. A rematch
    names its dealer (the previous match's, rotated by one); otherwise it is drawn."""
    if dealer is None:
        dealer = secrets.randbelow(4)  # R2: the first dealer is chosen at random
    state = engine.new_match(engine.get_ruleset(match.ruleset), dealer=dealer, target=match.target)
    match.first_dealer = dealer
    match.status = MatchStatus.ACTIVE
    match.started_at = clock.now()
    if match.rated and not rated_start_allowed(match):
        # A bot at the table, or opponents who had their rated meetings of the day
        # (games.selectors.rated): the match is casual, and says so from its first version.
        match.rated = False
    state = round_deal(match, state)
    state_store(match, state)
    events.emit(MatchStarted(match_id=match.pk, version=match.version))


def round_deal(match: Match, state: engine.GameState) -> engine.GameState:
    """Shuffle, commit to the deck (its digest is public before the first card is seen) and
    deal the next round."""
    deck = shuffled_deck()
    names = deck_names(deck)
    salt = new_salt()
    number = state.round_no + 1
    digest = engine.deck_commitment(salt, names)
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


def rounds_close(match: Match, before: engine.GameState, after: engine.GameState) -> None:
    """Write the result of every round that ended between ``before`` and ``after``."""
    now = timezone.now()
    for finished in after.history[len(before.history) :]:
        Round.objects.filter(match=match, number=finished.number).update(
            status=RoundStatus(finished.status.value),
            contract=_contract_json(finished),
            result=result_to_dict(finished.result, with_sawa=after.ruleset.sawa),
            scores_after=list(finished.scores_after),
            ended_at=now,
        )


def _contract_json(finished: engine.RoundLog) -> dict[str, Any] | None:
    return contract_to_dict(finished.contract, finished.multiplier, finished.gahwa, finished.locked)


def version_bump(match: Match, follow_up: FollowUp | None = None) -> None:
    match.version += 1
    # A hard bot's lease holds one version's turn; whatever the new version's turn is, nobody
    # is thinking on it yet.
    match.thinking_until = None
    match.save()
    if follow_up is not None:
        schedule_on_commit(match.pk, match.version, follow_up, match.deadline)
    events.emit(VersionCommitted(match_id=match.pk, version=match.version))


def state_store(match: Match, state: engine.GameState) -> None:
    """Save the snapshot, the denormalised turn and deadline, bump the version, and schedule
    what the next turn needs once the transaction commits."""
    match.put_state(state)
    match.deadline = None
    follow_up = None
    if match.status == MatchStatus.ACTIVE and match.to_act is not None:
        seat = match.seat_at(match.to_act)
        now = clock.now()  # the turn rules' clock (core.clock), which tests can set
        if is_automatic(seat):
            hard = playing_level(seat) == BotLevel.HARD
            follow_up = FollowUp.HARD_BOT if hard else FollowUp.BOT
            match.deadline = now + timedelta(seconds=bot_grace_seconds(follow_up))
        else:
            match.deadline = now + timedelta(seconds=match.turn_seconds)
            follow_up = FollowUp.DEADLINE
    version_bump(match, follow_up)
    if follow_up is FollowUp.DEADLINE:
        assert match.to_act is not None and match.deadline is not None
        seat = match.seat_at(match.to_act)
        assert seat.user_id is not None  # a human turn: neither a bot's nor an away seat's
        events.emit(
            TurnBegan(
                match_id=match.pk,
                version=match.version,
                seat=seat.index,
                user_id=seat.user_id,
                deadline=match.deadline,
                turn_seconds=match.turn_seconds,
            )
        )


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
    events.emit(
        MatchFinished(
            match_id=match.pk,
            version=match.version,
            status=match.status,
            winner_team=winner_team,
            end_reason=reason,
        )
    )


def snapshot_rewrite(match: Match, state: engine.GameState) -> None:
    """Replace a locked match's snapshot by ``state``, rebuilt from its decks and move log
    (``manage.py rebuild_snapshots``).

    The log did not change, so neither did the match at this version: only its cache was
    wrong, and the version stays, which keeps pending bot and deadline tasks valid. The one
    exception is a wrong turn on an active match: the deadline and the follow-up were set for
    the wrong seat, so the state is stored afresh (new deadline, version bumped, scheduled).
    An ended match has no turn, even one that ended mid-round by resignation."""
    row_turn = match.to_act
    match.put_state(state)
    if match.status == MatchStatus.ACTIVE and match.to_act != row_turn:
        state_store(match, state)
        return
    if match.status != MatchStatus.ACTIVE:
        match.to_act = None
    match.save(update_fields=["snapshot", "score_team0", "score_team1", "to_act", "updated_at"])
