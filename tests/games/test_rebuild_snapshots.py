"""``manage.py rebuild_snapshots``: a snapshot is a cache of the decks and the move log, and
the command proves it (``--check``) or rebuilds it from them with the engine's one replay."""

from __future__ import annotations

import pickle
import random
from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from games import engine, services
from games.models import Match, Move, Round, RoundStatus
from games.replay import state_from_log
from tests.games.play import always_pass_first_round, play

pytestmark = pytest.mark.django_db


def run(*args: str) -> str:
    out = StringIO()
    call_command("rebuild_snapshots", *args, stdout=out, stderr=out)
    return out.getvalue()


def check_fails(*args: str) -> str:
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("rebuild_snapshots", "--check", *args, stdout=out, stderr=out)
    return out.getvalue()


def snapshot(match_id: int) -> bytes:
    raw = Match.objects.get(pk=match_id).snapshot
    assert raw is not None
    return bytes(raw)


def row(match_id: int) -> dict[str, Any]:
    values: dict[str, Any] = dict(Match.objects.filter(pk=match_id).values().get())
    assert values["snapshot"] is not None
    values["snapshot"] = bytes(values["snapshot"])
    del values["updated_at"]
    return values


def test_a_corrupt_snapshot_fails_the_check_and_the_rebuild_restores_it(table: Any) -> None:
    view, _ = table()
    match_id = view["id"]
    rng = random.Random(1)
    play(match_id, rng, until=lambda s: s.round_no == 2 and len(s.actions) >= 12)
    earlier = snapshot(match_id)
    match = play(match_id, rng, until=lambda s: s.round_no == 3 and len(s.actions) >= 6)
    good = row(match_id)
    assert state_from_log(match) == match.load_state()
    assert "1 agree" in run("--check", "--match", str(match_id))

    # A snapshot of an earlier moment: readable, but not what the log says now.
    Match.objects.filter(pk=match_id).update(snapshot=earlier)
    out = check_fails("--match", str(match_id))
    assert f"match {match_id}: the snapshot differs from the replay of the log; differs" in out
    assert snapshot(match_id) == earlier  # --check writes nothing

    out = run("--match", str(match_id))
    assert f"match {match_id}: the snapshot differs from the replay of the log; rewritten" in out
    # The very bytes the moves wrote, and the version stays: the log did not change.
    assert row(match_id) == good
    assert "1 agree" in run("--check", "--match", str(match_id))


def test_garbage_and_pickles_are_rebuilt(table: Any) -> None:
    view, _ = table()
    match = play(view["id"], random.Random(2), until=lambda s: s.round_no == 2)
    good = row(match.pk)
    for bad in (b"not json", pickle.dumps(match.load_state())):
        Match.objects.filter(pk=match.pk).update(snapshot=bad)
        with pytest.raises(engine.SnapshotError):
            Match.objects.get(pk=match.pk).load_state()  # no pickle is read at run time
        assert "the snapshot cannot be read" in check_fails()
        run()
        assert row(match.pk) == good


def test_a_redealt_and_finished_match_and_a_resigned_one(table: Any) -> None:
    redealt, _ = table(target=60)
    finished = play(redealt["id"], random.Random(3), prefer=always_pass_first_round)
    assert finished.status == "finished"
    statuses = list(Round.objects.filter(match=finished).values_list("status", flat=True))
    assert statuses[0] == RoundStatus.REDEAL and RoundStatus.COMPLETE in statuses

    resigned, players = table()
    play(resigned["id"], random.Random(4), until=lambda s: s.round_no == 2 and len(s.actions) > 9)
    services.match_resign(match_id=resigned["id"], user=players[0].user)
    last = Round.objects.filter(match_id=resigned["id"]).order_by("number").last()
    assert last is not None and last.status == RoundStatus.IN_PROGRESS  # its deck stays secret

    ids = [str(finished.pk), str(resigned["id"])]
    good = {pk: row(int(pk)) for pk in ids}
    assert "2 agree" in run("--check", "--match", *ids)
    for pk in ids:
        Match.objects.filter(pk=pk).update(snapshot=b"{}")
    assert "0 agree" in check_fails("--match", *ids)
    run("--match", ids[0], "--match", ids[1])
    assert {pk: row(int(pk)) for pk in ids} == good  # to_act stays empty on ended matches


def test_a_wrong_turn_is_stored_afresh(table: Any) -> None:
    view, _ = table()
    match = play(view["id"], random.Random(5), until=lambda s: len(s.actions) >= 3)
    assert match.to_act is not None
    Match.objects.filter(pk=match.pk).update(to_act=(match.to_act + 1) % 4, deadline=None)
    assert "the turn or the scores on the row differ" in check_fails()
    run()
    fixed = Match.objects.get(pk=match.pk)
    # The deadline and the follow-up were for the wrong seat: a new version, a new deadline.
    assert (fixed.to_act, fixed.version) == (match.to_act, match.version + 1)
    assert fixed.deadline is not None
    assert "1 agree" in run("--check")


def test_a_log_that_does_not_replay_is_reported_and_nothing_is_written(table: Any) -> None:
    view, _ = table()
    match = play(view["id"], random.Random(6), until=lambda s: len(s.actions) >= 2)
    before = row(match.pk)
    # The log is append-only for the models; a damaged database is not.
    Move.objects.filter(match=match, seq=1).update(payload={"type": "play", "card": "AS"})
    for args in ((), ("--check",)):
        out = StringIO()
        with pytest.raises(CommandError):
            call_command("rebuild_snapshots", *args, stdout=out, stderr=out)
        assert f"match {match.pk}: the log does not replay" in out.getvalue()
    assert row(match.pk) == before


def test_unstarted_and_unknown_matches(make_player: Any) -> None:
    from tests.conftest import create_match

    waiting = create_match(make_player())
    assert "1 agree" in run("--check", "--match", str(waiting["id"]))
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("rebuild_snapshots", "--match", "999999", stdout=out, stderr=out)
    assert "match 999999: no such match" in out.getvalue()
