"""The built-in avatars' pictures (``accounts/static/avatars/``, drawn by
``scripts/draw_avatars.py``): one per id, each a 256x256 RGB PNG with no metadata and a
drawing on it."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, PngImagePlugin

AVATARS = Path(__file__).resolve().parents[2] / "accounts" / "static" / "avatars"

IDS = [
    "spade",
    "heart",
    "diamond",
    "club",
    "crescent",
    "star",
    "palm",
    "dallah",
    "bot-easy",
    "bot-normal",
    "bot-hard",
]


@pytest.mark.parametrize("avatar_id", IDS)
def test_avatar_picture(avatar_id: str) -> None:
    with Image.open(AVATARS / f"{avatar_id}.png") as image:
        assert isinstance(image, PngImagePlugin.PngImageFile)
        assert image.format == "PNG"
        assert image.size == (256, 256)
        assert image.mode == "RGB"
        # No metadata: no Exif, no text chunks.
        assert not image.getexif()
        assert image.text == {}
        assert not {"exif", "Comment", "Software", "comment", "icc_profile"} & set(image.info)
        # A badge with an emblem: besides the edges' blend, at least three colours that each
        # fill 1% of the picture (the square's, the circle's, the emblem's). A blank picture has
        # one, an empty badge two.
        colors = image.getcolors(maxcolors=256 * 256)
        assert colors is not None
        flat = [color for count, color in colors if count >= 256 * 256 // 100]
        assert len(flat) >= 3, flat
