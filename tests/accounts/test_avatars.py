"""Avatars through the API: the catalog (GET /avatars), a built-in one chosen (PATCH /me), a
picture uploaded (PUT /me/avatar) and served, removed (DELETE /me/avatar); refusals change
nothing and leave no file; the personas; deletion erases it."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.core.files.storage import default_storage
from PIL import Image
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle

from accounts.avatars.catalog import CATALOG
from accounts.models import User
from tests.support.api import API, assert_field_errors, assert_problem
from tests.support.pictures import jpeg, jpeg_of_scans, jpeg_with_metadata, png, png_claiming
from tests.support.players import PASSWORD, Player

ME = f"{API}/me"
MY_AVATAR = f"{API}/me/avatar"
CATALOG_URL = f"{API}/avatars"


def upload(client: APIClient, data: bytes, content_type: str = "image/jpeg") -> Any:
    return client.put(MY_AVATAR, data=data, content_type=content_type)


def stored(player: Player) -> tuple[str, str]:
    user = User.objects.get(pk=player.id)
    return user.avatar, user.avatar_picture.name or ""


def pictures_on_disk(media: Path) -> set[str]:
    folder = media / "avatars"
    return {p.name for p in folder.iterdir()} if folder.exists() else set()


@pytest.fixture
def media() -> Path:
    return Path(default_storage.path(""))


def test_the_catalog_lists_each_built_in_avatar_with_its_name_and_picture(
    make_player: Callable[..., Player], client: Any
) -> None:
    amal = make_player()
    answer = amal.client.get(CATALOG_URL)
    assert answer.status_code == 200
    listed = answer.json()
    assert [item["id"] for item in listed] == list(CATALOG)
    assert "bot-easy" not in {item["id"] for item in listed}  # the bots' own are not offered
    for item in listed:
        assert item["url"] == f"/static/avatars/{item['id']}.png"
        served = client.get(item["url"])  # WhiteNoise serves the drawn PNGs
        assert served.status_code == 200
        body = b"".join(served.streaming_content) if served.streaming else served.content
        assert Image.open(io.BytesIO(body)).size == (256, 256)
    assert listed[0]["name"] == "Spade"


def test_the_catalog_names_are_arabic_for_an_arabic_reader(
    make_player: Callable[..., Player],
) -> None:
    amal = make_player()
    names = [i["name"] for i in amal.client.get(CATALOG_URL, HTTP_ACCEPT_LANGUAGE="ar").json()]
    assert all(any("\u0600" <= ch <= "\u06ff" for ch in name) for name in names), names


def test_a_built_in_avatar_is_chosen_with_patch_me_and_shown_in_the_profile(
    make_player: Callable[..., Player],
) -> None:
    amal = make_player()
    answer = amal.client.patch(ME, {"avatar": "dallah"}, format="json")
    assert answer.status_code == 200, answer.content
    shown = {"kind": "catalog", "id": "dallah", "url": "/static/avatars/dallah.png"}
    assert answer.json()["avatar"] == shown
    assert amal.client.get(ME).json()["avatar"] == shown

    assert amal.client.patch(ME, {"avatar": None}, format="json").json()["avatar"] is None
    assert stored(amal) == ("", "")


@pytest.mark.parametrize("avatar", ["bot-hard", "falcon", "", 7, ["palm"]])
def test_an_avatar_not_in_the_catalog_is_refused_and_changes_nothing(
    make_player: Callable[..., Player], avatar: Any
) -> None:
    amal = make_player()
    amal.client.patch(ME, {"avatar": "palm"}, format="json")
    response = amal.client.patch(ME, {"avatar": avatar}, format="json")
    assert_field_errors(response, {"avatar": "invalid_choice"})
    assert stored(amal) == ("palm", "")


def test_an_uploaded_picture_becomes_the_avatar_served_as_a_clean_jpeg(
    make_player: Callable[..., Player],
    client: Any,
    media: Path,
    django_capture_on_commit_callbacks: Any,
) -> None:
    amal = make_player()
    amal.client.patch(ME, {"avatar": "palm"}, format="json")
    before = pictures_on_disk(media)  # the run's media root holds other tests' pictures
    with django_capture_on_commit_callbacks(execute=True):
        answer = upload(amal.client, jpeg_with_metadata())
    assert answer.status_code == 200, answer.content
    avatar = answer.json()
    assert avatar["kind"] == "picture" and avatar["id"] is None
    assert avatar["url"].startswith("/media/avatars/") and avatar["url"].endswith(".jpg")
    assert amal.client.get(ME).json()["avatar"] == avatar
    assert stored(amal)[0] == ""  # the picture replaced the built-in one

    served = client.get(avatar["url"])  # no token: an image loader sends none
    assert served.status_code == 200
    assert served["Content-Type"] == "image/jpeg"
    assert "immutable" in served["Cache-Control"]
    body = b"".join(served.streaming_content)
    assert b"SecretPhone" not in body and b"Exif" not in body
    assert Image.open(io.BytesIO(body)).size == (256, 256)
    assert pictures_on_disk(media) - before == {avatar["url"].rsplit("/", 1)[1]}


def test_a_new_picture_replaces_the_old_whose_file_is_deleted(
    make_player: Callable[..., Player], media: Path, django_capture_on_commit_callbacks: Any
) -> None:
    amal = make_player()
    with django_capture_on_commit_callbacks(execute=True):
        first = upload(amal.client, jpeg()).json()["url"]
    first_file = media / first.removeprefix("/media/")
    assert first_file.exists()
    with django_capture_on_commit_callbacks(execute=True):
        second = upload(amal.client, png(), "image/png").json()["url"]
    assert second != first
    assert not first_file.exists()
    assert (media / second.removeprefix("/media/")).exists()

    with django_capture_on_commit_callbacks(execute=True):
        amal.client.patch(ME, {"avatar": "star"}, format="json")
    assert not (media / second.removeprefix("/media/")).exists()


def test_delete_removes_the_avatar_and_its_file(
    make_player: Callable[..., Player],
    client: Any,
    media: Path,
    django_capture_on_commit_callbacks: Any,
) -> None:
    amal = make_player()
    with django_capture_on_commit_callbacks(execute=True):
        url = upload(amal.client, jpeg()).json()["url"]
    with django_capture_on_commit_callbacks(execute=True):
        assert amal.client.delete(MY_AVATAR).status_code == 204
    assert amal.client.get(ME).json()["avatar"] is None
    assert not (media / url.removeprefix("/media/")).exists()
    assert client.get(url).status_code == 404
    # Removing none changes nothing.
    assert amal.client.delete(MY_AVATAR).status_code == 204
    assert_problem(amal.client.delete(MY_AVATAR, {"x": 1}, format="json"), 400, "invalid")


@pytest.mark.parametrize(
    ("body", "content_type", "status", "code"),
    [
        (b"not a picture", "image/jpeg", 422, "invalid_picture"),
        (b"", "image/png", 422, "invalid_picture"),
        (b"GIF89a\x01\x00\x01\x00\x00\x00\x00;", "image/png", 422, "invalid_picture"),
        (jpeg()[:200], "image/jpeg", 422, "invalid_picture"),
        (png_claiming(50_000, 50_000), "image/png", 422, "picture_too_large"),
        (png_claiming(5000, 4000), "image/png", 422, "picture_too_large"),
        (jpeg_of_scans(40), "image/jpeg", 422, "picture_too_complex"),
        (b"GIF89a\x01\x00\x01\x00\x00\x00\x00;", "image/gif", 415, "unsupported_media_type"),
        (b'{"avatar": "palm"}', "application/json", 415, "unsupported_media_type"),
        (b"\xff\xd8" + b"\x00" * (1024 * 1024), "image/jpeg", 413, "payload_too_large"),
    ],
    ids=[
        "text",
        "empty",
        "gif as png",
        "truncated",
        "bomb header",
        "too many pixels",
        "too many scans",
        "gif",
        "json",
        "over 1 MiB",
    ],
)
def test_a_refused_upload_changes_nothing_and_leaves_no_file(
    make_player: Callable[..., Player],
    media: Path,
    django_capture_on_commit_callbacks: Any,
    body: bytes,
    content_type: str,
    status: int,
    code: str,
) -> None:
    amal = make_player()
    with django_capture_on_commit_callbacks(execute=True):
        upload(amal.client, jpeg())
    before, files = stored(amal), pictures_on_disk(media)

    with django_capture_on_commit_callbacks(execute=True):
        response = upload(amal.client, body, content_type)
    assert_problem(response, status, code)

    assert stored(amal) == before
    assert pictures_on_disk(media) == files


def test_a_body_over_a_mebibyte_is_refused_even_where_the_api_allows_larger_bodies(
    make_player: Callable[..., Player], settings: Any
) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 4 * 1024 * 1024
    amal = make_player()
    response = upload(amal.client, b"\xff\xd8" + b"\x00" * (1024 * 1024))
    assert_problem(response, 413, "payload_too_large")
    assert stored(amal) == ("", "")


def test_uploads_have_their_own_rate_limit(
    make_player: Callable[..., Player], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(ScopedRateThrottle.THROTTLE_RATES, "avatar_upload", "2/hour")
    amal = make_player()
    assert upload(amal.client, jpeg()).status_code == 200
    assert upload(amal.client, jpeg()).status_code == 200
    assert_problem(upload(amal.client, jpeg()), 429, "throttled")
    # Reading the profile and removing the avatar are not uploads.
    assert amal.client.get(ME).status_code == 200


def test_only_upload_names_are_served_from_the_media_path(client: Any) -> None:
    for name in ("../secret-key", "x.jpg", "0" * 32 + ".png", "0" * 32 + ".jpg"):
        assert client.get(f"/media/avatars/{name}").status_code == 404, name


@pytest.fixture
def deleted_client(make_player: Callable[..., Player]) -> APIClient:
    player = make_player()
    response = player.client.delete(ME, {"password": PASSWORD}, format="json")
    assert response.status_code == 204
    return player.client


@pytest.mark.parametrize("persona", ["anonymous", "revoked", "banned", "deleted"])
def test_the_personas_may_not_read_the_catalog_or_change_an_avatar(
    request: pytest.FixtureRequest, db: None, persona: str
) -> None:
    client: APIClient = {
        "anonymous": lambda: request.getfixturevalue("anon"),
        "revoked": lambda: request.getfixturevalue("revoked"),
        "banned": lambda: request.getfixturevalue("banned").client,
        "deleted": lambda: request.getfixturevalue("deleted_client"),
    }[persona]()
    status, code = {
        "anonymous": (401, "not_authenticated"),
        "revoked": (401, "authentication_failed"),
        "banned": (403, "account_banned"),
        "deleted": (401, "authentication_failed"),
    }[persona]
    assert_problem(client.get(CATALOG_URL), status, code)
    assert_problem(upload(client, jpeg()), status, code)
    assert_problem(client.delete(MY_AVATAR), status, code)
    assert_problem(client.patch(ME, {"avatar": "palm"}, format="json"), status, code)
    assert not User.objects.exclude(avatar="", avatar_picture="").exists()


def test_deleting_the_account_erases_the_avatar_and_its_file(
    make_player: Callable[..., Player],
    media: Path,
    django_capture_on_commit_callbacks: Any,
) -> None:
    amal = make_player()
    with django_capture_on_commit_callbacks(execute=True):
        url = upload(amal.client, jpeg()).json()["url"]
    with django_capture_on_commit_callbacks(execute=True):
        response = amal.client.delete(ME, {"password": PASSWORD}, format="json")
    assert response.status_code == 204
    assert stored(amal) == ("", "")
    assert not (media / url.removeprefix("/media/")).exists()


def test_the_media_path_answers_only_reads(client: Any) -> None:
    for method in ("post", "put", "delete"):
        response = getattr(client, method)(f"/media/avatars/{'0' * 32}.jpg")
        assert response.status_code == 405, (method, response.status_code)
