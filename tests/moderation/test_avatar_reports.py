"""A player's uploaded picture before the moderators: a report names it (a copy is kept as
evidence, whatever the player does next), the admin shows it to staff only, and moderators
remove it (upholding the report, or from the player's page), each in the moderation log.
Deleting the account erases the evidence too."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.core.files.storage import default_storage
from django.test import Client

from accounts.models import User
from moderation.models import ModerationAction, Report
from tests.support.api import API, assert_field_errors, assert_problem
from tests.support.pictures import jpeg, png
from tests.support.players import PASSWORD, Player, create_match


def report(player: Player, match_id: int, **body: Any) -> Any:
    payload = {"reason": "other", **body}
    return player.client.post(f"{API}/matches/{match_id}/reports", payload, format="json")


def upload(player: Player, data: bytes | None = None) -> str:
    response = player.client.put(f"{API}/me/avatar", data=data or jpeg(), content_type="image/jpeg")
    assert response.status_code == 200, response.content
    return response.json()["url"]


def exists(name: str | None) -> bool:
    return name is not None and name != "" and default_storage.exists(name)


def evidence_of(filed: Report) -> str:
    return filed.avatar_evidence.name or ""


def evidence_files() -> set[str]:
    # The media root is the run's (tests/conftest.py): other tests' files are there too.
    return (
        set(default_storage.listdir("reports")[1]) if default_storage.exists("reports") else set()
    )


@pytest.fixture
def pictured(
    table: Callable[..., Any], django_capture_on_commit_callbacks: Any
) -> tuple[dict[str, Any], list[Player]]:
    """An active match where seat 1 has uploaded a picture."""
    view, players = table()
    with django_capture_on_commit_callbacks(execute=True):
        upload(players[1])
    return view, players


def test_a_report_names_the_picture_and_keeps_a_copy_the_player_cannot_take_back(
    pictured: Any, django_capture_on_commit_callbacks: Any
) -> None:
    view, players = pictured
    response = report(players[0], view["id"], seat=1, avatar=True)
    assert response.status_code == 201, response.content
    assert response.json()["avatar"] is True
    filed = Report.objects.get()
    picture = User.objects.get(pk=players[1].id).avatar_picture.name
    assert filed.avatar_picture == picture
    assert exists(evidence_of(filed)) and evidence_of(filed) != picture
    with default_storage.open(picture or "") as a, default_storage.open(evidence_of(filed)) as b:
        assert a.read() == b.read()

    with django_capture_on_commit_callbacks(execute=True):  # the player swaps it at once
        upload(players[1], png())
    assert not exists(picture)
    assert exists(evidence_of(filed))


def test_a_report_about_an_avatar_needs_an_uploaded_picture(
    table: Callable[..., Any], make_player: Callable[..., Player]
) -> None:
    view, players = table()
    players[2].client.patch(f"{API}/me", {"avatar": "palm"}, format="json")
    before = evidence_files()
    for seat in (1, 2):  # none, and a built-in one
        response = report(players[0], view["id"], seat=seat, avatar=True)
        assert_field_errors(
            response, {"avatar": "no_picture_to_report"}, status=422, code="no_picture_to_report"
        )
    assert not Report.objects.exists()
    assert evidence_files() == before


def test_a_refused_report_about_a_picture_leaves_no_copy(
    pictured: Any, make_player: Callable[..., Player]
) -> None:
    view, players = pictured
    evidence_before = evidence_files()
    assert report(players[0], view["id"], seat=1, avatar=True).status_code == 201
    after_first = evidence_files()
    # The same report again is a duplicate (409): its copy is deleted.
    assert_problem(report(players[0], view["id"], seat=1, avatar=True), 409, "duplicate_report")
    # An outsider of a private match learns nothing, and nothing is copied.
    private = create_match(players[1], visibility="private")
    assert_problem(report(make_player(), private["id"], seat=0, avatar=True), 404, "not_found")
    assert evidence_files() == after_first
    assert len(after_first - evidence_before) == 1


def test_the_admin_shows_the_evidence_to_moderators_only(
    pictured: Any, mod_client: Client, player_client: Client, anon: Any
) -> None:
    view, players = pictured
    report(players[0], view["id"], seat=1, avatar=True)
    filed = Report.objects.get()
    page = mod_client.get(f"/admin/moderation/report/{filed.pk}/change/").content.decode()
    evidence_url = f"/admin/moderation/report/{filed.pk}/picture/"
    assert evidence_url in page
    shown = mod_client.get(evidence_url)
    assert shown.status_code == 200 and shown["Content-Type"] == "image/jpeg"
    with default_storage.open(evidence_of(filed)) as copy:
        served = b"".join(shown.streaming_content)  # type: ignore[attr-defined]
        assert served == copy.read()
    assert player_client.get(evidence_url).status_code == 302  # to the admin's login
    assert Client().get(evidence_url).status_code == 302
    # The evidence is not under the public media path.
    name = evidence_of(filed).rsplit("/", 1)[1]
    assert Client().get(f"/media/avatars/{name}").status_code == 404


def test_upholding_the_report_removes_the_picture_and_logs_it(
    pictured: Any, mod_client: Client, moderator: Player, django_capture_on_commit_callbacks: Any
) -> None:
    view, players = pictured
    report(players[0], view["id"], seat=1, avatar=True)
    filed = Report.objects.get()
    data = {"action": "remove_reported_pictures", "_selected_action": [str(filed.pk)]}
    page = mod_client.post("/admin/moderation/report/", data)
    assert page.status_code == 200 and b'name="reason"' in page.content  # asks why first
    with django_capture_on_commit_callbacks(execute=True):
        done = mod_client.post(
            "/admin/moderation/report/", {**data, "apply": "1", "reason": "offensive picture"}
        )
    assert done.status_code == 302
    filed.refresh_from_db()
    assert filed.status == "upheld" and filed.resolved_by == moderator.user
    assert not exists(filed.avatar_picture)
    assert exists(evidence_of(filed))  # the evidence stays with the report
    assert players[1].client.get(f"{API}/me").json()["avatar"] is None
    logged = ModerationAction.objects.get()
    assert (logged.kind, logged.reason, logged.report_id) == (
        "avatar_remove",
        "offensive picture",
        filed.pk,
    )
    assert logged.changes["avatar_picture"] == [filed.avatar_picture, None]


def test_a_moderator_removes_a_picture_from_the_players_page(
    pictured: Any, mod_client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    _, players = pictured
    user = User.objects.get(pk=players[1].id)
    name = user.avatar_picture.name
    page = mod_client.get(f"/admin/accounts/user/{user.pk}/change/").content.decode()
    assert f"/media/{name}" in page  # the avatar is shown
    data = {"action": "remove_pictures", "_selected_action": [str(user.pk)]}
    with django_capture_on_commit_callbacks(execute=True):
        done = mod_client.post(
            "/admin/accounts/user/", {**data, "apply": "1", "reason": "not a face"}
        )
    assert done.status_code == 302
    assert not exists(name)
    assert User.objects.get(pk=user.pk).avatar_picture.name == ""
    assert ModerationAction.objects.get().kind == "avatar_remove"


def test_plain_staff_cannot_remove_a_picture(pictured: Any, staff_client: Client) -> None:
    _, players = pictured
    user = User.objects.get(pk=players[1].id)
    data = {"action": "remove_pictures", "_selected_action": [str(user.pk)], "apply": "1"}
    staff_client.post("/admin/accounts/user/", {**data, "reason": "x"})
    assert User.objects.get(pk=user.pk).avatar_picture.name != ""
    assert not ModerationAction.objects.exists()


def test_deleting_the_account_erases_the_evidence_of_its_pictures(
    pictured: Any, django_capture_on_commit_callbacks: Any
) -> None:
    view, players = pictured
    report(players[0], view["id"], seat=1, avatar=True)
    filed = Report.objects.get()
    evidence = evidence_of(filed)
    with django_capture_on_commit_callbacks(execute=True):
        response = players[1].client.delete(f"{API}/me", {"password": PASSWORD}, format="json")
    assert response.status_code == 204
    filed.refresh_from_db()
    assert not exists(evidence) and evidence_of(filed) == ""
    assert filed.avatar_picture  # the report still says it was about a picture


def test_evidence_files_live_under_the_media_root(pictured: Any) -> None:
    view, players = pictured
    report(players[0], view["id"], seat=1, avatar=True)
    filed = Report.objects.get()
    assert Path(default_storage.path(evidence_of(filed))).is_file()


def test_dismissing_a_report_about_a_picture_deletes_its_copy(
    pictured: Any, moderator: Player, django_capture_on_commit_callbacks: Any
) -> None:
    from moderation import services as moderation

    view, players = pictured
    report(players[0], view["id"], seat=1, avatar=True)
    filed = Report.objects.get()
    evidence = evidence_of(filed)
    with django_capture_on_commit_callbacks(execute=True):
        moderation.report_dismiss(moderator=moderator.user, report_id=filed.pk, reason="fine")
    filed.refresh_from_db()
    assert (filed.status, evidence_of(filed)) == ("dismissed", "")
    assert not exists(evidence)
    assert exists(User.objects.get(pk=players[1].id).avatar_picture.name)  # the picture stays
