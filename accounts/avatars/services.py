"""Avatar writes. Decoding a picture and writing or deleting files are slow (and, on an object
store, network calls), so none of it happens inside a write transaction: a picture is made and
stored first, then one short transaction points the account at it; a file no longer pointed
at is deleted once that commits, and a stored file whose transaction failed is deleted at once.
"""

from __future__ import annotations

import logging
import secrets

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import transaction

from accounts.avatars.pictures import picture_avatar
from accounts.errors import AccountClosed
from accounts.models import User

log = logging.getLogger(__name__)


def avatar_upload(*, user: User, data: bytes) -> User:
    """Make ``data`` (a JPEG or PNG) the player's avatar, in place of any other."""
    jpeg = picture_avatar(data)
    name = default_storage.save(f"avatars/{secrets.token_hex(16)}.jpg", ContentFile(jpeg))
    try:
        with transaction.atomic():
            locked = User.objects.select_for_update().get(pk=user.pk)
            if locked.deleted_at is not None or not locked.is_active:
                raise AccountClosed()  # deleted while the picture was being made
            picture_clear(locked)
            locked.avatar = ""
            locked.avatar_picture.name = name
            locked.save(update_fields=["avatar", "avatar_picture"])
    except BaseException:
        picture_discard(name)
        raise
    return locked


def picture_clear(locked: User) -> str | None:
    """Inside the caller's transaction, ``locked`` the user's row locked in it: forget the
    uploaded picture (the caller saves the row) and delete its file once the transaction
    commits. Returns the picture's storage name, or None if there was none."""
    name = locked.avatar_picture.name or None
    if name is None:
        return None
    locked.avatar_picture.name = ""
    transaction.on_commit(lambda: picture_discard(name))
    return name


def picture_discard(name: str) -> None:
    """Delete a stored picture. A failure is logged, not raised: the account no longer
    points at the file, and an orphan file is harmless next to a failed request."""
    try:
        default_storage.delete(name)
    except OSError:
        log.warning("could not delete the stored picture %s", name, exc_info=True)
