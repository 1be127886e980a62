"""accounts.avatars.pictures: an upload becomes a fixed-size JPEG drawn from its pixels alone
(no metadata survives), upright and in sRGB; what is not a readable JPEG or PNG, or has too
many pixels, is refused. Pure: no database, no storage."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from accounts.avatars.errors import InvalidPicture, PictureTooComplex, PictureTooLarge
from accounts.avatars.pictures import MAX_JPEG_SCANS, MAX_UPLOAD_BYTES, SIZE, picture_avatar
from tests.support.pictures import jpeg, jpeg_of_scans, jpeg_with_metadata, png, png_claiming


def opened(data: bytes) -> Image.Image:
    picture = Image.open(io.BytesIO(data))
    picture.load()
    return picture


def reddish(pixel: tuple[int, ...]) -> bool:
    return pixel[0] > 180 and pixel[2] < 80


def bluish(pixel: tuple[int, ...]) -> bool:
    return pixel[2] > 180 and pixel[0] < 80


@pytest.mark.parametrize(
    "upload",
    [jpeg((4032, 3024)), jpeg((100, 60)), png((300, 1200)), png((1, 1))],
    ids=["phone photo", "small jpeg", "tall png", "one pixel"],
)
def test_any_readable_picture_becomes_a_square_jpeg_of_the_avatar_size(upload: bytes) -> None:
    avatar = opened(picture_avatar(upload))
    assert (avatar.format, avatar.size, avatar.mode) == ("JPEG", (SIZE, SIZE), "RGB")


def test_nothing_of_the_file_but_its_pixels_is_kept() -> None:
    upload = jpeg_with_metadata()
    assert b"SecretPhone" in upload and b"taken at home" in upload  # what could leak

    data = picture_avatar(upload)

    avatar = opened(data)
    assert not avatar.getexif()
    assert "icc_profile" not in avatar.info and "comment" not in avatar.info
    for secret in (b"SecretPhone", b"PhoneMaker", b"taken at home", b"Exif", b"ICC_PROFILE"):
        assert secret not in data


@pytest.mark.parametrize(("orientation", "left_is_red"), [(1, True), (3, False)])
def test_the_exif_orientation_is_applied_before_it_is_dropped(
    orientation: int, left_is_red: bool
) -> None:
    # Orientation 3: the camera was upside down; shown upright, red is on the right.
    avatar = opened(picture_avatar(jpeg_with_metadata(orientation=orientation))).convert("RGB")
    left, right = avatar.getpixel((20, SIZE // 2)), avatar.getpixel((SIZE - 20, SIZE // 2))
    assert isinstance(left, tuple) and isinstance(right, tuple)
    assert reddish(left) is left_is_red and bluish(right) is left_is_red
    assert reddish(right) is not left_is_red


def test_the_middle_of_a_wide_picture_is_kept() -> None:
    picture = Image.new("RGB", (900, 300), (20, 20, 250))
    picture.paste((250, 20, 20), (300, 0, 600, 300))  # the middle third is red
    out = io.BytesIO()
    picture.save(out, "PNG")
    avatar = opened(picture_avatar(out.getvalue()))
    for x in (5, SIZE // 2, SIZE - 5):
        pixel = avatar.getpixel((x, SIZE // 2))
        assert isinstance(pixel, tuple) and reddish(pixel)


@pytest.mark.parametrize("mode", ["RGBA", "LA"])
def test_transparency_is_laid_on_white(mode: str) -> None:
    clear = (0, 0, 0, 0) if mode == "RGBA" else (0, 0)
    avatar = opened(picture_avatar(png((200, 200), clear, mode=mode)))
    pixel = avatar.getpixel((SIZE // 2, SIZE // 2))
    assert isinstance(pixel, tuple) and min(pixel) > 245


@pytest.mark.parametrize("mode", ["P", "L", "1", "I;16", "CMYK"])
def test_every_mode_a_jpeg_or_png_can_hold_is_drawn(mode: str) -> None:
    picture = Image.new(mode, (64, 64))
    out = io.BytesIO()
    picture.save(out, "JPEG" if mode == "CMYK" else "PNG")
    avatar = opened(picture_avatar(out.getvalue()))
    assert (avatar.size, avatar.mode) == ((SIZE, SIZE), "RGB")


@pytest.mark.parametrize(
    "upload",
    [
        b"",
        b"not a picture at all",
        b"GIF89a\x01\x00\x01\x00\x00\x00\x00;",
        jpeg()[:300],  # cut off in its pixels
        png()[:40],
        b"\x89PNG\r\n\x1a\n" + b"\x00" * 100,
    ],
    ids=["empty", "text", "gif", "truncated jpeg", "truncated png", "png signature only"],
)
def test_what_is_not_a_readable_jpeg_or_png_is_refused(upload: bytes) -> None:
    with pytest.raises(InvalidPicture):
        picture_avatar(upload)


@pytest.mark.parametrize(
    ("width", "height"),
    [(4097, 4096), (4096, 4097), (100_000, 100_000), (2**31 - 1, 1), (1, 16_777_216)],
    ids=["just too wide", "just too tall", "a bomb's header", "a line", "a column of 4096^2"],
)
def test_a_picture_wider_or_taller_than_the_bound_is_refused_before_it_is_decoded(
    width: int, height: int
) -> None:
    with pytest.raises(PictureTooLarge):
        picture_avatar(png_claiming(width, height))


def test_a_progressive_jpeg_of_a_usual_number_of_scans_is_drawn() -> None:
    usual = jpeg_of_scans(0)
    assert 1 < usual.count(b"\xff\xda") <= MAX_JPEG_SCANS
    assert opened(picture_avatar(usual)).size == (SIZE, SIZE)


def test_a_jpeg_of_too_many_scans_is_refused_before_it_is_decoded() -> None:
    many = jpeg_of_scans(MAX_JPEG_SCANS)
    assert many.count(b"\xff\xda") > MAX_JPEG_SCANS
    with pytest.raises(PictureTooComplex):
        picture_avatar(many)


def test_more_than_a_mebibyte_is_refused_unread() -> None:
    with pytest.raises(PictureTooLarge):
        picture_avatar(b"\xff" * (MAX_UPLOAD_BYTES + 1))


def test_a_picture_of_exactly_the_bound_is_accepted() -> None:
    avatar = opened(picture_avatar(png((4096, 4096), (10, 200, 10))))
    assert avatar.size == (SIZE, SIZE)
