"""An uploaded picture made into an avatar: decoded, checked and drawn again from its pixels.

Nothing of the upload is kept but what it shows: the result is a new JPEG of a fixed size,
written from a fresh image, so no metadata (EXIF with its GPS position, comments, colour
profiles, thumbnails, trailing bytes) survives, and what clients download is never the
sender's file. Pure Pillow and bytes; the storage is ``accounts.avatars.services``'s.
"""

from __future__ import annotations

import io
import warnings

from PIL import Image, ImageCms, ImageOps, UnidentifiedImageError

from accounts.avatars.errors import InvalidPicture, PictureTooComplex, PictureTooLarge

# The upload's bound (api.md: "up to 1 MiB"), checked on the body before anything decodes it.
MAX_UPLOAD_BYTES = 1024 * 1024
# What an avatar becomes: square, large enough for a profile page on a dense screen.
SIZE = 256
JPEG_QUALITY = 85
# A 1 MiB PNG of one flat colour can claim a billion pixels; decoding is refused above a
# phone camera's 4096 x 4096 before a pixel is read. Pillow's own bomb check, far higher,
# would only warn first.
MAX_PIXELS = 4096 * 4096
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


def picture_avatar(data: bytes) -> bytes:
    """The avatar made from an uploaded JPEG or PNG: a ``SIZE`` square JPEG, the middle of
    the picture upright (its EXIF orientation applied), colours in sRGB, transparency on
    white. Refuses what is not such a picture (``InvalidPicture``) and a picture of more than
    ``MAX_PIXELS`` (``PictureTooLarge``) or a JPEG of more than ``MAX_JPEG_SCANS`` scans
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
        if width * height > MAX_PIXELS:
            raise PictureTooLarge()
        if picture.format == "JPEG" and data.count(_START_OF_SCAN) > MAX_JPEG_SCANS:
            raise PictureTooComplex()
        # A JPEG decodes at 1/2, 1/4 or 1/8 scale when that still covers SIZE: a phone
        # photo costs a fraction of its full decode.
        picture.draft("RGB", (SIZE, SIZE))
        picture.load()
        upright = ImageOps.exif_transpose(picture)
        rgb = _in_srgb(upright)
    square = ImageOps.fit(rgb, (SIZE, SIZE), Image.Resampling.LANCZOS)
    # A new image holding only the pixels: nothing of the upload's info goes with it.
    clean = Image.new("RGB", (SIZE, SIZE))
    clean.paste(square)
    out = io.BytesIO()
    clean.save(out, "JPEG", quality=JPEG_QUALITY, optimize=True)
    return out.getvalue()


def _in_srgb(picture: Image.Image) -> Image.Image:
    """``picture`` as RGB in sRGB: its colour profile applied if it has one Pillow can use,
    transparency laid on white, wide greyscale brought to 8 bits."""
    if picture.mode in _WIDE_GREY:
        picture = picture.point(lambda value: value * (1 / 256)).convert("L")
    if picture.mode == "P":
        picture = picture.convert("RGBA")
    if picture.mode in ("RGBA", "LA", "PA", "La", "RGBa"):
        picture = picture.convert("RGBA")
        white = Image.new("RGBA", picture.size, (255, 255, 255, 255))
        picture = Image.alpha_composite(white, picture)
    icc = picture.info.get("icc_profile")
    if icc and picture.mode in ("RGB", "CMYK", "L"):
        try:
            source = ImageCms.ImageCmsProfile(io.BytesIO(icc))
            converted = ImageCms.profileToProfile(picture, source, _SRGB, outputMode="RGB")
        except (ImageCms.PyCMSError, OSError, ValueError):
            converted = None  # a broken profile: the pixels as they are
        if converted is not None:
            return converted
    return picture.convert("RGB")
