"""The admin: every changelist, change page, filter and action renders and works for a
moderator, and is refused to staff without the group; players never reach it."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any, TypeVar

import pytest
from django.contrib.auth.models import Group
from django.db.models import Manager, Model, QuerySet
from django.utils import timezone

from accounts.models import Sanction
from games import records
from games.models import Match, Move, Round, RoundStatus, Seat
from moderation import services as moderation
from moderation.models import Flag, FlagEvidence, ModerationAction, Report
from tests.support.api import API, view_of

MODERATOR_PERMISSIONS = {
    "accounts.view_user",
    "accounts.view_sanction",
    "accounts.add_sanction",
    "accounts.change_sanction",
    "games.view_match",
    "games.moderate_match",
    "games.view_seat",
    "games.view_round",
    "games.view_move",
    "moderation.view_report",
    "moderation.change_report",
    "moderation.view_moderationaction",
    "moderation.view_flag",
    "moderation.change_flag",
    "moderation.view_flagevidence",
    "tournaments.view_tournament",
    "tournaments.add_tournament",
    "tournaments.change_tournament",
    "tournaments.moderate_tournament",
    "tournaments.view_entry",
    "tournaments.view_tournamentround",
    "tournaments.view_pairing",
}

M = TypeVar("M", bound=Model)


def first(rows: QuerySet[M] | Manager[M]) -> M:
    row = rows.first()
    assert row is not None
    return row


SINCE, UNTIL = "2000-01-01+00:00:00%2B00:00", "2999-01-01+00:00:00%2B00:00"

CHANGELISTS = {
    "accounts/user": ["sanctioned=yes", "sanctioned=no", "is_staff__exact=1", "q=player"],
    "accounts/sanction": ["kind__exact=ban", f"created_at__gte={SINCE}", "q=x"],
    "games/match": [
        "status__exact=active",
        "status__exact=finished",
        "end_reason__exact=adjudicated",
        "end_reason__exact=resigned",
        f"created_at__gte={SINCE}&created_at__lt={UNTIL}",  # a date range
        "open_reports=yes",
        "open_reports=no",
        "abandoned=yes",
        "abandoned=no",
        "visibility__exact=public",
        "rated__exact=1",
        "q=P1",
    ],
    "games/seat": ["away__exact=1", "bot__exact=easy", "q=1"],
    "games/round": ["status__exact=complete", f"started_at__gte={SINCE}"],
    "games/move": ["actor__exact=human", f"created_at__gte={SINCE}", "q=1"],
    "moderation/report": [
        "status=open",
        "status=dismissed",
        "status=all",
        "reason__exact=cheating",
    ],
    "moderation/moderationaction": [
        "kind__exact=match_abort",
        f"created_at__gte={SINCE}",
        "q=x",
    ],
    "moderation/flag": ["status=open", "status=all", "kind__exact=one_sided_results", "q=1"],
}


@pytest.fixture
def world(played: Any, moderator: Any) -> dict[str, Any]:
    """One of every row a moderator looks at."""
    match, players = played
    report = Report.objects.create(
        match=match, seat=1, reporter=players[0].user, reported=players[1].user, reason="other"
    )
    sanction = moderation.sanction_apply(
        moderator=moderator.user, user_id=players[3].id, kind="warn", reason="x"
    )
    flag = Flag.objects.create(kind="one_sided_results", ruleset="gamerules", match=match)
    FlagEvidence.objects.create(
        flag=flag, match=match, winner=players[0].user, loser=players[1].user
    )
    return {
        "accounts/user": players[0].user.pk,
        "accounts/sanction": sanction.pk,
        "games/match": match.pk,
        "games/seat": first(Seat.objects.filter(match=match)).pk,
        "games/round": first(Round.objects.filter(match=match)).pk,
        "games/move": first(Move.objects.filter(match=match)).pk,
        "moderation/report": report.pk,
        "moderation/moderationaction": first(ModerationAction.objects).pk,
        "moderation/flag": flag.pk,
        "match": match,
        "players": players,
    }


def test_the_moderators_group_has_exactly_these_rights(db: None) -> None:
    group = Group.objects.get(name="moderators")
    got = {f"{p.content_type.app_label}.{p.codename}" for p in group.permissions.all()}
    assert got == MODERATOR_PERMISSIONS
    assert not any(code.split(".")[1].startswith("delete_") for code in got)


@pytest.mark.parametrize("model", sorted(CHANGELISTS))
def test_changelists_filters_and_change_pages_render_for_a_moderator(
    world: dict[str, Any], mod_client: Any, model: str
) -> None:
    base = f"/admin/{model}/"
    assert mod_client.get(base).status_code == 200
    for query in CHANGELISTS[model]:
        # Django redirects a filter it does not know to ?e=1; ours answer 200.
        response = mod_client.get(f"{base}?{query}")
        assert response.status_code == 200, (query, response.get("Location"))
    page = mod_client.get(f"{base}{world[model]}/change/")
    assert page.status_code == 200
    # View-only: nothing to save, nothing to delete.
    assert b'name="_save"' not in page.content
    assert b"/delete/" not in page.content


@pytest.mark.parametrize("model", sorted(CHANGELISTS))
def test_staff_without_the_group_see_nothing_game_related(
    world: dict[str, Any], staff_client: Any, model: str
) -> None:
    assert staff_client.get(f"/admin/{model}/").status_code == 403
    assert staff_client.get(f"/admin/{model}/{world[model]}/change/").status_code == 403


def test_staff_without_the_group_get_an_empty_index_and_no_actions(
    world: dict[str, Any], staff_client: Any
) -> None:
    index = staff_client.get("/admin/")
    assert index.status_code == 200
    for name in (b"Matches", b"Reports", b"Sanctions", b"Moderation log", b"Moves"):
        assert name not in index.content
    match = world["match"]
    url = f"/admin/games/match/{match.pk}/moderate/abort/"
    assert staff_client.post(url, {"apply": "1", "reason": "x"}).status_code == 403
    assert staff_client.get(f"/admin/games/match/{match.pk}/rounds/1/record/").status_code == 403
    response = staff_client.post(
        "/admin/games/match/",
        {"action": "abort_matches", "_selected_action": [match.pk], "apply": "1", "reason": "x"},
    )
    assert response.status_code == 403
    match.refresh_from_db()
    assert match.status == "active" and not ModerationAction.objects.filter(match=match).exists()


@pytest.mark.parametrize("url", ["/admin/", "/admin/games/match/", "/admin/moderation/report/"])
def test_players_never_reach_the_admin(world: dict[str, Any], player_client: Any, url: str) -> None:
    response = player_client.get(url)
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_a_moderator_index_lists_the_game_models(mod_client: Any) -> None:
    index = mod_client.get("/admin/").content
    for name in (b"Matches", b"Seats", b"Rounds", b"Moves", b"Reports", b"Sanctions"):
        assert name in index
    assert b"Moderation log" in index and b"Users" in index


def test_the_match_page_shows_seats_score_sheet_and_the_move_log_with_the_deal(
    world: dict[str, Any], mod_client: Any
) -> None:
    match = world["match"]
    html = mod_client.get(f"/admin/games/match/{match.pk}/change/").content.decode()
    assert 'id="score-sheet"' in html and 'id="move-log"' in html
    for seat in match.seats.select_related("user"):
        assert f"<td>{seat.user}</td>" in html or str(seat.user) in html
    first = Round.objects.get(match=match, number=1)
    assert " ".join(first.deck) in html  # the full deck, staff only
    current = Round.objects.get(match=match, number=2)
    assert current.status == RoundStatus.IN_PROGRESS
    assert " ".join(current.deck) in html  # even the round in play
    for move in Move.objects.filter(match=match)[:5]:
        assert f"<td>{move.seq}</td>" in html
    # Moves appear in play order.
    positions = [html.index(f"<td>{m.seq}</td><td>{m.version}</td>") for m in match.moves.all()]
    assert positions == sorted(positions)
    # Each finished round offers its record; the round in play does not.
    assert f"/admin/games/match/{match.pk}/rounds/1/record/" in html
    assert f"/admin/games/match/{match.pk}/rounds/2/record/" not in html
    # The moderator may act on it from the page.
    assert f"/admin/games/match/{match.pk}/moderate/abort/" in html


def test_round_record_download(world: dict[str, Any], mod_client: Any) -> None:
    match = world["match"]
    response = mod_client.get(f"/admin/games/match/{match.pk}/rounds/1/record/")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == (
        f'attachment; filename="match-{match.pk}-round-1.json"'
    )
    expected = records.round_record(match, Round.objects.get(match=match, number=1))
    assert json.loads(response.content) == json.loads(json.dumps(expected))
    assert mod_client.get(f"/admin/games/match/{match.pk}/rounds/2/record/").status_code == 409
    assert mod_client.get(f"/admin/games/match/{match.pk}/rounds/9/record/").status_code == 404


def _match_action(client: Any, match: Match, action: str, **form: Any) -> Any:
    data = {"action": action, "_selected_action": [str(match.pk)], "apply": "1"}
    return client.post("/admin/games/match/", {**data, **form})


@pytest.mark.parametrize(
    ("action", "form", "check"),
    [
        ("abort_matches", {}, lambda m: m.status == "aborted"),
        (
            "adjudicate_match",
            {"winner_team": "0"},
            lambda m: (m.status, m.winner_team, m.end_reason) == ("finished", 0, "adjudicated"),
        ),
        (
            "seat_to_bot",
            {"seat": "2", "level": "normal"},
            lambda m: m.seats.get(index=2).bot == "normal",
        ),
        (
            "seat_to_bot",
            {"seat": "2", "level": "hard"},
            lambda m: m.seats.get(index=2).bot == "hard",
        ),
        (
            "extend_deadline",
            {"minutes": "90"},
            lambda m: m.deadline > timezone.now() + timedelta(minutes=89),
        ),
    ],
)
def test_match_actions_from_the_changelist(
    world: dict[str, Any], mod_client: Any, action: str, form: dict[str, str], check: Any
) -> None:
    match, players = world["match"], world["players"]
    # The world has a human on the clock, so every action (extending a deadline too) applies.
    assert match.to_act is not None and not match.seats.get(index=match.to_act).away
    before = match.version
    logged = ModerationAction.objects.count()
    # The intermediate page asks for the reason first.
    page = mod_client.post(
        "/admin/games/match/", {"action": action, "_selected_action": [str(match.pk)]}
    )
    assert page.status_code == 200 and b'name="reason"' in page.content
    match.refresh_from_db()
    assert match.version == before
    response = _match_action(mod_client, match, action, reason="moderator test", **form)
    assert response.status_code == 302
    match.refresh_from_db()
    assert check(match)
    assert match.version == before + 1
    assert ModerationAction.objects.count() == logged + 1
    entry = ModerationAction.objects.filter(match=match).get()
    assert entry.reason == "moderator test"
    viewer = players[0] if action != "seat_to_bot" else players[1]
    assert view_of(viewer, match.pk)["version"] == before + 1


def test_match_action_from_the_match_page(world: dict[str, Any], mod_client: Any) -> None:
    match = world["match"]
    url = f"/admin/games/match/{match.pk}/moderate/adjudicate/"
    page = mod_client.get(url)
    assert page.status_code == 200 and b"winner_team" in page.content
    response = mod_client.post(url, {"apply": "1", "winner_team": "1", "reason": "cheating"})
    assert response.status_code == 302
    assert response["Location"].endswith(f"/admin/games/match/{match.pk}/change/")
    match.refresh_from_db()
    assert match.winner_team == 1 and match.end_reason == "adjudicated"
    # A refused action reports the error and changes nothing.
    response = mod_client.post(
        f"/admin/games/match/{match.pk}/moderate/abort/", {"apply": "1", "reason": "x"}, follow=True
    )
    assert b"not running" in response.content
    match.refresh_from_db()
    assert match.status == "finished"


def test_sanctions_from_the_admin(world: dict[str, Any], mod_client: Any) -> None:
    target = world["players"][1]
    page = mod_client.get("/admin/accounts/sanction/add/")
    assert page.status_code == 200
    response = mod_client.post(
        "/admin/accounts/sanction/add/",
        {
            "user": str(target.id),
            "kind": "suspend",
            "ends_at_0": (timezone.now() + timedelta(days=2)).strftime("%Y-%m-%d"),
            "ends_at_1": "12:00:00",
            "reason": "abuse in chat",
        },
    )
    assert response.status_code == 302, response.content
    sanction = Sanction.objects.get(user=target.user, kind="suspend")
    assert sanction.created_by.username == "mod"
    assert target.client.get(f"{API}/me").json()["code"] == "account_suspended"
    entry = ModerationAction.objects.get(sanction=sanction)
    assert entry.kind == "sanction_apply"
    # A suspension without an end is refused by the form.
    page = mod_client.post(
        "/admin/accounts/sanction/add/",
        {"user": str(target.id), "kind": "suspend", "reason": "x"},
    )
    assert page.status_code == 200 and b"needs an end" in page.content
    # Lift it.
    response = mod_client.post(
        "/admin/accounts/sanction/",
        {
            "action": "lift_sanctions",
            "_selected_action": [str(sanction.pk)],
            "apply": "1",
            "reason": "appeal",
        },
    )
    assert response.status_code == 302
    assert target.client.get(f"{API}/me").status_code == 200


def test_the_log_cannot_be_edited_or_deleted_from_the_admin(
    world: dict[str, Any], mod_client: Any, admin_client: Any
) -> None:
    entry = first(ModerationAction.objects)
    for client in (mod_client, admin_client):  # not even a superuser
        assert client.get(f"/admin/moderation/moderationaction/{entry.pk}/delete/").status_code in (
            302,
            403,
        )
        client.post(f"/admin/moderation/moderationaction/{entry.pk}/change/", {"reason": "edited"})
        response = client.post(
            "/admin/moderation/moderationaction/",
            {"action": "delete_selected", "_selected_action": [str(entry.pk)], "post": "yes"},
        )
        assert response.status_code in (200, 302)
        assert client.get("/admin/moderation/moderationaction/add/").status_code == 403
    entry.refresh_from_db()
    assert entry.reason == "x"


def test_the_user_page_shows_moderation_statistics(world: dict[str, Any], mod_client: Any) -> None:
    reported = world["players"][1]
    html = mod_client.get(f"/admin/accounts/user/{reported.id}/change/").content.decode()
    for key in ("played", "finished", "resigned", "abandoned", "timeouts", "reports received"):
        assert key in html
    assert "reports upheld" in html
    assert f"/admin/games/match/?player={reported.id}" in html
    listing = mod_client.get(f"/admin/games/match/?player={reported.id}")
    assert listing.status_code == 200
    assert f"/admin/games/match/{world['match'].pk}/change/" in listing.content.decode()
