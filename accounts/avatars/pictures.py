"""An uploaded picture made into an avatar: decoded, checked and drawn again from its pixels.

Nothing of the upload is kept but what it shows: the result is a new JPEG of a fixed size,
written from a fresh image, so no metadata (EXIF with its GPS position, comments, colour
profiles, thumbnails, trailing bytes) survives, and what clients download is never the
sender's file. Pure Pillow and bytes; the storage is ``accounts.avatars.services``'s.
"""

from __future__ import annotations

import io
import threading
import warnings

from PIL import Image, ImageCms, ImageOps, UnidentifiedImageError

from accounts.avatars.errors import InvalidPicture, PictureTooComplex, PictureTooLarge

# The upload's bound (api.md: "up to 1 MiB"), checked on the body before anything decodes it.
MAX_UPLOAD_BYTES = 1024 * 1024
# What an avatar becomes: square, large enough for a profile page on a dense screen.
SIZE = 256
JPEG_QUALITY = 85
# A 1 MiB PNG of one flat colour can claim a billion pixels; decoding is refused beyond a
# phone camera's 4096 on either side before a pixel is read (a side, not an area: a 1 x 16M
# picture costs as much memory as a square one, row by row). Pillow's own bomb check, far
# higher, would only warn first.
MAX_SIDE = 4096
# A progressive JPEG is drawn in scans, each a pass over every pixel: an encoder writes about
# ten, a hostile file thousands (3,006 scans of a 4096 x 4096 picture took 42 s to decode
# here). Counted before decoding: every scan starts with a start-of-scan marker, which the
# compressed data never holds (it escapes 0xFF), though an embedded thumbnail's may be counted.
MAX_JPEG_SCANS = 32
_START_OF_SCAN = b"\xff\xda"
FORMATS = ("JPEG", "PNG")
# Modes converted through 8-bit greyscale first: Pillow has no direct path to RGB from them.
_WIDE_GREY = ("I", "I;16", "I;16B", "I;16L", "I;16N", "F")
_SRGB = ImageCms.createProfile("sRGB")
# Decodes at once in one process: each holds up to one full-size copy (64 MB for 4096 x 4096
# with transparency), so a burst of uploads cannot take the process's memory; one waits for
# the next (a decode takes a fraction of a second).
_DECODING = threading.BoundedSemaphore(2)


def picture_avatar(data: bytes) -> bytes:
    """The avatar made from an uploaded JPEG or PNG: a ``SIZE`` square JPEG, the middle of
    the picture upright (its EXIF orientation applied), colours in sRGB, transparency on
    white. Refuses what is not such a picture (``InvalidPicture``) and a picture wider or
    taller than ``MAX_SIDE`` (``PictureTooLarge``) or a JPEG of more than ``MAX_JPEG_SCANS`` scans
    (``PictureTooComplex``)."""
    if len(data) > MAX_UPLOAD_BYTES:
        raise PictureTooLarge()
    try:
        with warnings.catch_warnings():
            # Pillow warns (and does not stop) on truncated data and odd chunks: a picture
            # it cannot read whole is refused below, one it can is drawn again anyway.
            warnings.simplefilter("ignore")
            return _redrawn(data)
    except Image.DecompressionBombError as exc:
        # A header claiming over twice Pillow's own bound, refused by Image.open itself.
        raise PictureTooLarge() from exc
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, EOFError) as exc:
        # Pillow's ways of saying "not a picture it can read": unknown or corrupt data,
        # truncated streams, bad chunk sizes.
        raise InvalidPicture() from exc


def _redrawn(data: bytes) -> bytes:
    with Image.open(io.BytesIO(data), formats=FORMATS) as picture:
        width, height = picture.size
        if width < 1 or height < 1:
            raise InvalidPicture()
        if width > MAX_SIDE or height > MAX_SIDE:
            raise PictureTooLarge()
        if picture.format == "JPEG" and data.count(_START_OF_SCAN) > MAX_JPEG_SCANS:
            raise PictureTooComplex()
        # A JPEG decodes at 1/2, 1/4 or 1/8 scale when that still covers SIZE: a phone
        # photo costs a fraction of its full decode.
        picture.draft("RGB", (SIZE, SIZE))
        with _DECODING:
            picture.load()
            icc = picture.info.get("icc_profile")
            ImageOps.exif_transpose(picture, in_place=True)
            # Made small first, in the picture's own mode: every other step then works on
            # SIZE x SIZE pixels, and the full-size ones are one decoded copy at most.
            square = ImageOps.fit(_resizable(picture), (SIZE, SIZE), Image.Resampling.LANCZOS)
    rgb = _in_srgb(square, icc)
    # A new image holding only the pixels: nothing of the upload's info goes with it.
    clean = Image.new("RGB", (SIZE, SIZE))
    clean.paste(rgb)
    out = io.BytesIO()
    clean.save(out, "JPEG", quality=JPEG_QUALITY, optimize=True)
    return out.getvalue()


def _resizable(picture: Image.Image) -> Image.Image:
    """``picture`` in a mode Pillow resamples smoothly: a palette's colours (and its
    transparency) spelled out, one bit or wide greyscale as 8-bit grey."""
    if picture.mode in _WIDE_GREY:
        return picture.point(lambda value: value * (1 / 256)).convert("L")
    if picture.mode == "P":
        return picture.convert("RGBA")
    if picture.mode == "1":
        return picture.convert("L")
    return picture


def _in_srgb(picture: Image.Image, icc: bytes | None) -> Image.Image:
    """``picture`` as RGB in sRGB: its colour profile (``icc``) applied if Pillow can use it,
    transparency laid on white."""
    if picture.mode in ("RGBA", "LA", "PA", "La", "RGBa"):
        picture = picture.convert("RGBA")
        white = Image.new("RGBA", picture.size, (255, 255, 255, 255))
        picture = Image.alpha_composite(white, picture)
    if icc and picture.mode in ("RGB", "CMYK", "L"):
        try:
            source = ImageCms.ImageCmsProfile(io.BytesIO(icc))
            converted = ImageCms.profileToProfile(picture, source, _SRGB, outputMode="RGB")
        except (ImageCms.PyCMSError, OSError, ValueError):
            converted = None  # a broken profile: the pixels as they are
        if converted is not None:
            return converted
    return picture.convert("RGB")
