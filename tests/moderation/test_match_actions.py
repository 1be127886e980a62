"""Match actions: each goes through moderation.services (same lock and version bump as moves),
changes the match exactly as the service does, writes one log row, and players see it."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.utils import timezone

from core.errors import DomainError
from games import services
from games.models import Match
from games.services.scheduling import BOT_GRACE_SECONDS
from moderation import services as moderation
from moderation.models import ModerationAction, ModerationKind
from tests.support.api import assert_problem, fingerprint, view_of
from tests.support.tasks import hard_bot_task


def _active(table: Any) -> tuple[Match, list[Any]]:
    view, players = table()
    return Match.objects.get(pk=view["id"]), players


def test_abort_ends_the_match_with_no_result(table: Any, moderator: Any) -> None:
    match, players = _active(table)
    before = match.version
    moderation.match_abort(moderator=moderator.user, match_id=match.pk, reason="server fault")
    match.refresh_from_db()
    assert match.status == "aborted"
    assert match.winner_team is None and match.end_reason == ""
    assert match.to_act is None and match.deadline is None and match.finished_at
    assert match.version == before + 1
    entry = ModerationAction.objects.get()
    assert entry.kind == ModerationKind.MATCH_ABORT and entry.match_id == match.pk
    assert entry.moderator == moderator.user and entry.reason == "server fault"
    assert entry.changes["status"] == ["active", "aborted"]
    assert entry.changes["version"] == [before, before + 1]
    seen = view_of(players[1], match.pk)
    assert seen["status"] == "aborted" and seen["version"] == before + 1
    assert seen["winner_team"] is None and seen["end_reason"] is None
    assert seen["round"]["legal_moves"] == [] and seen["round"]["to_act"] is None
    # Nobody can move any more.
    response = players[seen["seats"][0]["seat"]].client.post(
        f"/api/v1/matches/{match.pk}/moves", {"type": "bid", "call": "pass"}, format="json"
    )
    assert_problem(response, 409, "match_not_active")


def test_adjudicate_awards_the_match_like_match_finish(table: Any, moderator: Any) -> None:
    match, players = _active(table)
    before = match.version
    moderation.match_adjudicate(
        moderator=moderator.user, match_id=match.pk, winner_team=1, reason="collusion by team 0"
    )
    match.refresh_from_db()
    assert (match.status, match.winner_team, match.end_reason) == ("finished", 1, "adjudicated")
    assert match.version == before + 1
    entry = ModerationAction.objects.get()
    assert entry.kind == ModerationKind.MATCH_ADJUDICATE
    assert entry.changes["winner_team"] == [None, 1]
    seen = view_of(players[0], match.pk)
    assert (seen["status"], seen["winner_team"], seen["end_reason"]) == (
        "finished",
        1,
        "adjudicated",
    )
    assert seen["version"] == before + 1


def test_adjudicate_refuses_a_bad_team_and_an_ended_match(table: Any, moderator: Any) -> None:
    match, _ = _active(table)
    with pytest.raises(DomainError):
        moderation.match_adjudicate(
            moderator=moderator.user, match_id=match.pk, winner_team=2, reason="x"
        )
    moderation.match_abort(moderator=moderator.user, match_id=match.pk, reason="x")
    with pytest.raises(DomainError) as refused:
        moderation.match_adjudicate(
            moderator=moderator.user, match_id=match.pk, winner_team=0, reason="x"
        )
    assert refused.value.code == "match_not_active"
    assert ModerationAction.objects.count() == 1  # only the abort was logged


def test_seat_to_bot_hands_the_seat_over_and_the_bot_plays(table: Any, moderator: Any) -> None:
    match, players = _active(table)
    seat = match.to_act
    assert seat is not None
    before = match.version
    moderation.match_seat_to_bot(
        moderator=moderator.user, match_id=match.pk, seat=seat, level="easy", reason="left"
    )
    match.refresh_from_db()
    replaced = match.seats.get(index=seat)
    assert replaced.user is None and replaced.bot == "easy"
    assert match.version == before + 1
    entry = ModerationAction.objects.get()
    assert entry.kind == ModerationKind.SEAT_TO_BOT
    assert entry.target_user == players[seat].user
    assert entry.changes["holder"][0]["user"] == players[seat].user.pk
    other = players[(seat + 1) % 4]
    seen = view_of(other, match.pk)
    assert seen["version"] == before + 1
    assert seen["seats"][seat]["bot"] == "easy" and seen["round"]["deadline"] is None
    # It is the bot's turn now; the task scheduled on commit plays it through the services.
    assert services.bot_turn_play(match_id=match.pk, expected_version=match.version)
    match.refresh_from_db()
    last = match.moves.last()
    assert last is not None and last.actor == "bot"
    # The replaced player no longer sits there: the private match is hidden from them now.
    response = players[seat].client.get(f"/api/v1/matches/{match.pk}")
    assert_problem(response, 404, "not_found")


def test_extend_deadline_moves_the_clock_and_bumps(table: Any, moderator: Any) -> None:
    match, players = _active(table)
    before, old_deadline = match.version, match.deadline
    assert old_deadline is not None
    moderation.match_deadline_extend(
        moderator=moderator.user, match_id=match.pk, by=timedelta(hours=2), reason="outage"
    )
    match.refresh_from_db()
    assert match.deadline == old_deadline + timedelta(hours=2)
    assert match.version == before + 1 and match.status == "active"
    entry = ModerationAction.objects.get()
    assert entry.kind == ModerationKind.DEADLINE_EXTEND
    assert entry.changes["version"] == [before, before + 1]
    assert match.to_act is not None
    seen = view_of(players[match.to_act], match.pk)
    assert seen["version"] == before + 1
    from django.utils.dateparse import parse_datetime

    assert parse_datetime(seen["round"]["deadline"]) == match.deadline
    # The old deadline's task is now stale: expiry at the old version does nothing.
    assert not services.turn_expire(match_id=match.pk, expected_version=before)


def test_extend_deadline_after_it_passed_counts_from_now(table: Any, moderator: Any) -> None:
    match, _ = _active(table)
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(hours=1))
    moderation.match_deadline_extend(
        moderator=moderator.user, match_id=match.pk, by=timedelta(minutes=10), reason="x"
    )
    match.refresh_from_db()
    assert match.deadline is not None
    assert match.deadline > timezone.now() + timedelta(minutes=9)


def test_every_action_needs_a_reason(table: Any, moderator: Any) -> None:
    match, _ = _active(table)
    with pytest.raises(DomainError) as refused:
        moderation.match_abort(moderator=moderator.user, match_id=match.pk, reason="  ")
    assert refused.value.code == "invalid"
    match.refresh_from_db()
    assert match.status == "active" and not ModerationAction.objects.exists()


def test_the_log_is_append_only(table: Any, moderator: Any) -> None:
    match, _ = _active(table)
    moderation.match_abort(moderator=moderator.user, match_id=match.pk, reason="x")
    entry = ModerationAction.objects.get()
    entry.reason = "rewritten"
    with pytest.raises(ValueError):
        entry.save()
    with pytest.raises(ValueError):
        entry.delete()


def test_a_seat_handed_to_a_hard_bot_plays_on_the_hard_bots_queue(
    clock: Any, commit: Any, table: Any, moderator: Any
) -> None:
    view, _players = table()
    seat = view["round"]["to_act"]
    with commit() as queued:
        moderation.match_seat_to_bot(
            moderator=moderator.user, match_id=view["id"], seat=seat, reason="left", level="hard"
        )
    match = Match.objects.get(pk=view["id"])
    assert match.seats.get(index=seat).bot == "hard"
    assert queued == [hard_bot_task(match.pk, match.version)]
    grace = BOT_GRACE_SECONDS + settings.BALOOT["HARD_BOT_TIME_BUDGET"]
    assert match.deadline == clock.after(grace)


def test_an_unknown_bot_level_is_refused_and_changes_nothing(table: Any, moderator: Any) -> None:
    match, _players = _active(table)
    before = fingerprint(match.pk)
    with pytest.raises(DomainError) as refused:
        moderation.match_seat_to_bot(
            moderator=moderator.user, match_id=match.pk, seat=1, reason="left", level="expert"
        )
    assert refused.value.code == "invalid"
    assert fingerprint(match.pk) == before and not ModerationAction.objects.exists()
