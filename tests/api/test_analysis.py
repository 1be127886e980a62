"""GET /matches/{id}/analysis: a finished match's analysis opens pending and goes to the
analysis queue once the finish commits; the task (run here in-process) fills it in, the
seated hear `analysis_ready`; who may read it; the same match analysed twice gives the same
figures; the sweep sends again what a lost task left pending."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.models import AuthToken
from accounts.services import token_revoke
from games import services
from games import tasks as game_tasks
from games.models import AnalysisStatus, Match, MatchAnalysis, MatchStatus, Move
from live import relay
from moderation import services as moderation
from tests.support.api import API, assert_problem, bid_hokum_round, match_url, play, to_act
from tests.support.clock import FakeClock
from tests.support.players import Player
from tests.support.tasks import TaskRecorder

Table = Callable[..., tuple[dict[str, Any], list[Player]]]


def analysis_url(match_id: int) -> str:
    return match_url(match_id, "/analysis")


def finished(
    hokum_table: Table, commit: Callable[..., Any], *, visibility: str = "public"
) -> tuple[int, list[Player]]:
    """A match four humans bid and resigned: a few decisions to analyse."""
    view, players = hokum_table(visibility=visibility)
    bid_hokum_round(players, view["id"], doubling=[])
    with commit():
        response = players[0].client.post(match_url(view["id"], "/resign"), format="json")
    assert response.status_code == 200, response.content
    return view["id"], players


def test_a_finished_match_opens_its_analysis_and_sends_it_to_the_analysis_queue(
    hokum_table: Table, commit: Callable[..., Any], task_recorder: TaskRecorder
) -> None:
    match_id, players = finished(hokum_table, commit)
    row = MatchAnalysis.objects.get(match_id=match_id)
    assert (row.status, row.seed) == (AnalysisStatus.PENDING, f"match-{match_id}")
    assert task_recorder.analyses == [(match_id,)]
    answer = players[1].client.get(analysis_url(match_id)).json()
    assert (answer["status"], answer["players"]) == ("pending", [])
    assert game_tasks.analyse_match.name in game_tasks.settings.CELERY_TASK_ROUTES
    assert game_tasks.ANALYSIS_QUEUE == "analysis"


def test_the_task_fills_it_in_and_the_seated_hear_it(
    hokum_table: Table,
    commit: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    match_id, players = finished(hokum_table, commit)
    notes: list[relay.Note] = []
    monkeypatch.setattr(relay, "publish", notes.append)

    with django_capture_on_commit_callbacks(execute=True):
        assert game_tasks.analyse_match(match_id) is True

    answer = players[2].client.get(analysis_url(match_id))
    assert answer.status_code == 200
    body = answer.json()
    assert body["status"] == "ready" and body["play_samples"] == 16
    assert [p["seat"] for p in body["players"]] == [0, 1, 2, 3]
    # Four humans bid: each call made among several options is a decision.
    assert sum(p["decisions"] for p in body["players"]) >= 4
    for player in body["players"]:
        if player["decisions"]:
            assert 0 <= player["accuracy"] <= 100 and player["mean_loss"] >= 0
        for worst in player["worst"]:
            assert worst["loss"] == pytest.approx(
                worst["best_value"] - worst["chosen_value"], abs=1e-3
            )
            assert worst["kind"] == "bid" and worst["chosen"]["type"] == "bid"
    heard = {(n["kind"], n["user_id"]) for n in notes}
    assert heard == {("analysis_ready", p.id) for p in players}
    # Done once: a redelivered task changes nothing.
    assert game_tasks.analyse_match(match_id) is False


def test_a_saudi_match_is_analysed_on_more_deals_a_card(
    table: Table, commit: Callable[..., Any]
) -> None:
    # In saudi the search shows an edge over the normal bot only on more deals a card than
    # in gamerules (bench/RESULTS.md "In saudi"): the analysis opens with saudi's count
    # (a gamerules match's is 16: the test above).
    view, players = table(ruleset="saudi")
    play(players, view["id"], to_act(view["id"]), {"type": "bid", "call": "pass"})
    with commit():
        response = players[0].client.post(match_url(view["id"], "/resign"), format="json")
    assert response.status_code == 200, response.content
    row = MatchAnalysis.objects.get(match_id=view["id"])
    assert (row.play_samples, row.bid_samples) == (64, 32)


def test_the_same_match_analysed_again_gives_the_same_figures(
    hokum_table: Table, commit: Callable[..., Any]
) -> None:
    match_id, _ = finished(hokum_table, commit)
    assert services.analysis_make(match_id)
    first = MatchAnalysis.objects.get(match_id=match_id).decisions
    MatchAnalysis.objects.filter(match_id=match_id).update(
        status=AnalysisStatus.PENDING, decisions=[]
    )
    assert services.analysis_make(match_id)
    assert MatchAnalysis.objects.get(match_id=match_id).decisions == first
    assert first  # there was something to compare


@pytest.mark.parametrize(
    ("persona", "visibility", "status", "code"),
    [
        ("seated", "private", 200, None),
        ("outsider", "public", 200, None),
        ("outsider", "private", 404, "not_found"),
        ("anonymous", "public", 401, "not_authenticated"),
        ("revoked", "public", 401, "authentication_failed"),
        ("banned", "public", 403, "account_banned"),
    ],
)
def test_who_may_read_it(
    hokum_table: Table,
    commit: Callable[..., Any],
    make_player: Callable[..., Player],
    persona: str,
    visibility: str,
    status: int,
    code: str | None,
) -> None:
    match_id, players = finished(hokum_table, commit, visibility=visibility)
    client: APIClient = {
        "seated": lambda: players[3].client,
        "outsider": lambda: make_player().client,
        "anonymous": APIClient,
        "revoked": lambda: _revoked(make_player()),
        "banned": lambda: _banned(make_player(), make_player()),
    }[persona]()
    response = client.get(analysis_url(match_id))
    if code is None:
        assert response.status_code == status, response.content
    else:
        assert_problem(response, status, code)


def _revoked(player: Player) -> APIClient:
    token_revoke(token=AuthToken.objects.get(user=player.user))
    return player.client


def _banned(player: Player, moderator: Player) -> APIClient:
    moderation.sanction_apply(
        moderator=moderator.user, user_id=player.id, kind="ban", reason="abuse"
    )
    return player.client


def test_a_match_still_being_played_has_none_yet(hokum_table: Table) -> None:
    view, players = hokum_table(visibility="public")
    assert_problem(players[0].client.get(analysis_url(view["id"])), 409, "match_not_finished")
    assert not MatchAnalysis.objects.exists()


def test_a_match_aborted_before_a_move_has_nothing_to_analyse(
    hokum_table: Table,
    make_player: Callable[..., Player],
    commit: Callable[..., Any],
    task_recorder: TaskRecorder,
) -> None:
    view, _ = hokum_table(visibility="public")
    staff = make_player()
    with commit():
        moderation.match_abort(moderator=staff.user, match_id=view["id"], reason="test")
    assert Match.objects.get(pk=view["id"]).status == MatchStatus.ABORTED  # it did finish
    assert not MatchAnalysis.objects.exists()
    assert task_recorder.analyses == []


def test_the_sweep_sends_again_an_analysis_pending_too_long(
    hokum_table: Table,
    commit: Callable[..., Any],
    clock: FakeClock,
    task_recorder: TaskRecorder,
) -> None:
    match_id, _ = finished(hokum_table, commit)
    task_recorder.analyses.clear()
    assert game_tasks.sweep_analyses() == 0  # just opened: its task may still be on its way
    clock.advance(game_tasks.ANALYSIS_RETRY_SECONDS + 1)
    assert game_tasks.sweep_analyses() == 1
    assert task_recorder.analyses == [(match_id,)]


def test_the_analysis_is_in_the_schema(anon: APIClient, db: None) -> None:
    schema = anon.get("/api/schema/?format=json").json()
    operation = schema["paths"][f"{API}/matches/{{id}}/analysis"]["get"]
    assert operation["operationId"] == "matches_analysis_retrieve"
    assert {"200", "401", "404", "409"} <= set(operation["responses"])


def test_a_log_that_does_not_replay_is_marked_failed_and_not_sent_again(
    hokum_table: Table,
    commit: Callable[..., Any],
    clock: FakeClock,
    task_recorder: TaskRecorder,
    caplog: pytest.LogCaptureFixture,
) -> None:
    match_id, players = finished(hokum_table, commit)
    first = Move.objects.filter(match_id=match_id).order_by("seq").first()
    assert first is not None
    Move.objects.filter(pk=first.pk).update(payload={"type": "bid", "call": "sun", "suit": "S"})
    assert services.analysis_make(match_id) is False
    assert MatchAnalysis.objects.get(match_id=match_id).status == AnalysisStatus.FAILED
    assert "does not replay" in caplog.text
    answer = players[0].client.get(analysis_url(match_id)).json()
    assert (answer["status"], answer["players"]) == ("failed", [])
    task_recorder.analyses.clear()
    clock.advance(game_tasks.ANALYSIS_RETRY_SECONDS + 1)
    assert game_tasks.sweep_analyses() == 0
