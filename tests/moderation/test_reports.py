"""POST /matches/{id}/reports: validation, one open report per reporter/reported/match,
the rate limit, and the admin queue with its actions."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.throttling import ScopedRateThrottle

from moderation.models import ModerationAction, Report
from moderation.selectors import player_stats
from tests.support.api import API, assert_problem
from tests.support.players import create_match


def _report(player: Any, match_id: int, **body: Any) -> Any:
    payload = {"seat": 1, "reason": "cheating", "comment": "always knows my hand", **body}
    return player.client.post(f"{API}/matches/{match_id}/reports", payload, format="json")


def test_a_player_reports_another_seat(table: Any) -> None:
    view, players = table()
    response = _report(players[0], view["id"], seat=3, reason="abusive_name")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["seat"] == 3 and body["reason"] == "abusive_name" and body["status"] == "open"
    report = Report.objects.get(pk=body["id"])
    assert report.reported == players[3].user and report.reporter == players[0].user
    # Filing a report changes nothing in the game.
    assert players[1].client.get(f"{API}/matches/{view['id']}").json()["version"] == view["version"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"reason": "rude"}, "reason"),
        ({"seat": 4}, "seat"),
        ({"seat": "x"}, "seat"),
        ({"seat": None}, "seat"),
    ],
)
def test_validation(table: Any, body: dict[str, Any], field: str) -> None:
    view, players = table()
    response = _report(players[0], view["id"], **body)
    problem = assert_problem(response, 400, "invalid")
    assert field in {e["field"] for e in problem["errors"]}
    assert not Report.objects.exists()


def test_reporting_yourself_is_refused_as_well_formed(table: Any) -> None:
    view, players = table()
    problem = assert_problem(_report(players[0], view["id"], seat=0), 422, "cannot_report_self")
    assert [e["field"] for e in problem["errors"]] == ["seat"]
    assert not Report.objects.exists()


def test_a_seat_without_a_player_cannot_be_reported(make_player: Any) -> None:
    host = make_player()
    created = create_match(host, bots={"1": "easy"})
    # A seat 0-3 is what the schema asks; who sits there is the match's state: 422.
    problem = assert_problem(_report(host, created["id"], seat=1), 422, "no_player_in_seat")
    assert problem["errors"][0]["field"] == "seat"  # a bot
    assert_problem(_report(host, created["id"], seat=2), 422, "no_player_in_seat")  # empty
    assert not Report.objects.exists()


def test_outsiders_cannot_report_in_a_private_match(table: Any, make_player: Any) -> None:
    view, _ = table()
    assert_problem(_report(make_player(), view["id"]), 404, "not_found")
    assert_problem(_report(make_player(), 999999), 404, "not_found")


def test_a_duplicate_open_report_is_refused(table: Any, moderator: Any) -> None:
    view, players = table()
    assert _report(players[0], view["id"]).status_code == 201
    assert_problem(_report(players[0], view["id"], reason="other"), 409, "duplicate_report")
    # Others may report the same player, and the reporter may report someone else.
    assert _report(players[2], view["id"]).status_code == 201
    assert _report(players[0], view["id"], seat=2).status_code == 201
    # Once the first is resolved, a new one is accepted.
    from moderation import services as moderation

    first = Report.objects.filter(reporter=players[0].user, seat=1).get()
    moderation.report_dismiss(moderator=moderator.user, report_id=first.pk, reason="no evidence")
    assert _report(players[0], view["id"]).status_code == 201


def test_reports_are_rate_limited(table: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(ScopedRateThrottle.THROTTLE_RATES, "reports", "2/hour")
    view, players = table()
    assert _report(players[0], view["id"], seat=1).status_code == 201
    assert _report(players[0], view["id"], seat=2).status_code == 201
    response = _report(players[0], view["id"], seat=3)
    assert_problem(response, 429, "throttled")
    assert int(response["Retry-After"]) > 0
    assert Report.objects.count() == 2


def test_anonymous_callers_are_refused(table: Any, anon: Any) -> None:
    view, _ = table()
    response = anon.post(f"{API}/matches/{view['id']}/reports", {}, format="json")
    assert_problem(response, 401, "not_authenticated")


def test_open_reports_appear_in_the_admin_queue(
    table: Any, mod_client: Any, moderator: Any
) -> None:
    view, players = table()
    _report(players[0], view["id"], seat=1, comment="queue-me-please")
    _report(players[2], view["id"], seat=3, comment="already-handled")
    from moderation import services as moderation

    handled = Report.objects.get(comment="already-handled")
    moderation.report_dismiss(moderator=moderator.user, report_id=handled.pk, reason="fine")
    page = mod_client.get("/admin/moderation/report/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "queue-me-please" in html and "already-handled" not in html
    assert f"/admin/games/match/{view['id']}/change/" in html  # the linked match
    every = mod_client.get("/admin/moderation/report/?status=all").content.decode()
    assert "already-handled" in every


def _act(client: Any, action: str, ids: list[int], **form: Any) -> Any:
    data = {"action": action, "_selected_action": [str(i) for i in ids]}
    return client.post("/admin/moderation/report/", {**data, **form})


def test_queue_actions_dismiss_warn_and_sanction(
    table: Any, mod_client: Any, moderator: Any
) -> None:
    view, players = table()
    for reporter, seat in ((0, 1), (0, 2), (0, 3)):
        assert _report(players[reporter], view["id"], seat=seat).status_code == 201
    r1, r2, r3 = Report.objects.order_by("seat")
    # First the intermediate page asking for a reason...
    page = _act(mod_client, "dismiss_reports", [r1.pk])
    assert page.status_code == 200 and b'name="reason"' in page.content
    # ...then the action itself.
    response = _act(mod_client, "dismiss_reports", [r1.pk], apply="1", reason="no evidence")
    assert response.status_code == 302
    response = _act(mod_client, "warn_reported", [r2.pk], apply="1", reason="mind your words")
    assert response.status_code == 302
    response = _act(
        mod_client, "sanction_reported", [r3.pk], apply="1", reason="bot use", kind="ban"
    )
    assert response.status_code == 302
    statuses = dict(Report.objects.values_list("pk", "status"))
    assert statuses == {r1.pk: "dismissed", r2.pk: "upheld", r3.pk: "upheld"}
    r3.refresh_from_db()
    assert r3.sanction is not None
    assert r3.sanction.kind == "ban" and r3.resolved_by == moderator.user
    assert_problem(players[3].client.get(f"{API}/me"), 403, "account_banned")
    assert players[2].client.get(f"{API}/me").status_code == 200  # only warned
    assert ModerationAction.objects.count() == 3
    stats = player_stats(players[3].user, moderation=True)
    assert stats["reports_received"] == 1 and stats["reports_upheld"] == 1
    stats = player_stats(players[1].user, moderation=True)
    assert stats["reports_received"] == 1 and stats["reports_upheld"] == 0
    assert "reports_received" not in player_stats(players[1].user)  # /me is unchanged


def test_a_suspension_from_the_queue_needs_an_end(table: Any, mod_client: Any) -> None:
    view, players = table()
    _report(players[0], view["id"], seat=1)
    report = Report.objects.get()
    page = _act(mod_client, "sanction_reported", [report.pk], apply="1", reason="x", kind="suspend")
    assert page.status_code == 200 and b"needs an end" in page.content
    report.refresh_from_db()
    assert report.status == "open"
