"""The avatars' refusals."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from core.errors import DomainError, Refused


class InvalidPicture(Refused):
    """Not a JPEG or PNG that decodes: a well-formed body (bytes of an image type), refused
    for what is in it."""

    code = "invalid_picture"
    default_detail = _("That is not a JPEG or PNG picture that can be read.")


class PictureTooLarge(Refused):
    """A picture wider or taller than ``accounts.avatars.pictures.MAX_SIDE``."""

    code = "picture_too_large"
    default_detail = _("That picture has too many pixels: at most 4096 by 4096.")


class PictureTooComplex(Refused):
    """A JPEG of more scans than ``accounts.avatars.pictures.MAX_JPEG_SCANS``: each scan of a
    progressive JPEG is another pass over every pixel, so thousands of them in 1 MiB cost
    minutes of decoding."""

    code = "picture_too_complex"
    default_detail = _("That JPEG has too many scans: at most 32.")


class PayloadTooLarge(DomainError):
    """More bytes than an avatar upload may have (1 MiB), however many the API allows."""

    code = "payload_too_large"
    status = 413
    default_detail = _("A picture may be at most 1 MiB.")
