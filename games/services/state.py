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

from games import engine
from games.dealing import commitment, deck_names, new_salt, shuffled_deck
from games.engine.codec import contract_to_dict
from games.engine.record import result_to_dict
from games.models import Match, MatchStatus, Round, RoundStatus
from games.selectors.seats import is_automatic
from games.services.scheduling import BOT_GRACE_SECONDS, FollowUp, schedule_on_commit


def match_start(match: Match) -> None:
    """Four filled seats: pick the first dealer, deal round 1 and start the clock."""
    dealer = secrets.randbelow(4)  # R2: the first dealer is chosen at random
    state = engine.new_match(engine.get_ruleset(match.ruleset), dealer=dealer, target=match.target)
    match.first_dealer = dealer
    match.status = MatchStatus.ACTIVE
    match.started_at = timezone.now()
    state = round_deal(match, state)
    state_store(match, state)


def round_deal(match: Match, state: engine.GameState) -> engine.GameState:
    """Shuffle, commit to the deck (its digest is public before the first card is seen) and
    deal the next round."""
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


def rounds_close(match: Match, before: engine.GameState, after: engine.GameState) -> None:
    """Write the result of every round that ended between ``before`` and ``after``."""
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


def version_bump(match: Match, follow_up: FollowUp | None = None) -> None:
    match.version += 1
    match.save()
    if follow_up is not None:
        schedule_on_commit(match.pk, match.version, follow_up, match.deadline)


def state_store(match: Match, state: engine.GameState) -> None:
    """Save the snapshot, the denormalised turn and deadline, bump the version, and schedule
    what the next turn needs once the transaction commits."""
    match.put_state(state)
    match.deadline = None
    follow_up = None
    if match.status == MatchStatus.ACTIVE and match.to_act is not None:
        seat = match.seat_at(match.to_act)
        now = timezone.now()
        if is_automatic(seat):
            match.deadline = now + timedelta(seconds=BOT_GRACE_SECONDS)
            follow_up = FollowUp.BOT
        else:
            match.deadline = now + timedelta(seconds=match.turn_seconds)
            follow_up = FollowUp.DEADLINE
    version_bump(match, follow_up)


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
