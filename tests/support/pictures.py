"""Pictures made in the test, as a phone or a hostile client would send them."""

from __future__ import annotations

import io
import struct
import zlib
from typing import Any

from PIL import Image, ImageCms


def jpeg(size: tuple[int, int] = (640, 480), colour: Any = (200, 30, 30), **save: Any) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, "JPEG", **save)
    return out.getvalue()


def png(
    size: tuple[int, int] = (300, 300), colour: Any = (30, 30, 200), mode: str = "RGB"
) -> bytes:
    out = io.BytesIO()
    Image.new(mode, size, colour).save(out, "PNG")
    return out.getvalue()


def halves(left: Any, right: Any, size: tuple[int, int] = (400, 400)) -> Image.Image:
    """A picture whose left half is ``left`` and right half ``right``: where they end up
    shows which way it was turned."""
    picture = Image.new("RGB", size, left)
    picture.paste(right, (size[0] // 2, 0, size[0], size[1]))
    return picture


def jpeg_with_metadata(picture: Image.Image | None = None, orientation: int = 1) -> bytes:
    """A JPEG as a phone writes it: EXIF with the camera, a GPS position and an orientation,
    a comment and a colour profile."""
    picture = picture or halves((250, 20, 20), (20, 20, 250))
    exif = Image.Exif()
    exif[0x010F] = "PhoneMaker"  # Make
    exif[0x0110] = "SecretPhone 12"  # Model
    exif[0x0112] = orientation
    gps = {1: "N", 2: (24.0, 42.0, 36.0), 3: "E", 4: (46.0, 43.0, 12.0)}  # Riyadh
    exif[0x8825] = gps
    icc = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    out = io.BytesIO()
    picture.save(out, "JPEG", exif=exif, comment=b"taken at home", icc_profile=icc)
    return out.getvalue()


def png_claiming(width: int, height: int) -> bytes:
    """A PNG whose header claims ``width`` x ``height`` pixels, with (almost) no data: what a
    decompression bomb's header looks like."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\x00" * 64))
        + chunk(b"IEND", b"")
    )


def jpeg_of_scans(extra: int) -> bytes:
    """A progressive JPEG with its last scan repeated ``extra`` more times: a file of many
    scans, each another pass over the picture for a decoder."""
    out = io.BytesIO()
    Image.new("RGB", (512, 512), (90, 140, 30)).save(out, "JPEG", progressive=True)
    data = out.getvalue()
    last = data.rindex(b"\xff\xda")
    scan = data[last:-2]  # from the last start-of-scan to the end-of-image marker
    return data[:-2] + scan * extra + data[-2:]
