"""Uploaded pictures before the moderators: a copy kept as a report's evidence, and the
removal of a player's picture (from the player's page, or by upholding a report about it).

Copying and deleting files are storage I/O, never inside the transaction: the copy is made
before the report's transaction (and deleted if it fails), deletions run once it commits.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import transaction

from accounts.avatars.services import picture_clear, picture_discard
from accounts.events import AccountDeleted
from accounts.models import User
from core import events
from games.models import Match, Seat, Visibility
from moderation.errors import NoPicture, UserNotFound
from moderation.models import ModerationKind, Report
from moderation.services.log import action_log, require_reason


@dataclass(frozen=True)
class Evidence:
    """A reported picture: whose it is, its storage name, and the copy kept of it."""

    owner_id: int
    picture: str
    copy: str


def evidence_copy(*, reporter: User, match_id: int, seat: int) -> Evidence | None:
    """The picture of the player in ``seat`` and a copy of it kept as evidence; None when
    there is none to copy (no player, no picture) or the reporter may not see the match: the
    report's own checks then refuse it."""
    match = Match.objects.filter(pk=match_id).only("visibility").first()
    if match is None:
        return None
    if (
        match.visibility == Visibility.PRIVATE
        and not Seat.objects.filter(match_id=match_id, user=reporter).exists()
    ):
        return None
    target = Seat.objects.filter(match_id=match_id, index=seat).select_related("user").first()
    if target is None or target.user is None or not target.user.avatar_picture:
        return None
    picture = target.user.avatar_picture.name or ""
    try:
        with default_storage.open(picture, "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        return None  # replaced a moment ago: the report finds no picture
    copy = default_storage.save(f"reports/{secrets.token_hex(16)}.jpg", ContentFile(data))
    return Evidence(owner_id=target.user.pk, picture=picture, copy=copy)


@transaction.atomic
def avatar_remove(*, moderator: User, user_id: int, reason: str) -> User:
    """Remove a player's uploaded picture (they keep no avatar until they choose another)."""
    reason = require_reason(reason)
    user = User.objects.select_for_update().filter(pk=user_id).first()
    if user is None:
        raise UserNotFound()
    name = picture_clear(user)
    if name is None:
        raise NoPicture()
    user.save(update_fields=["avatar_picture"])
    action_log(
        moderator=moderator,
        kind=ModerationKind.AVATAR_REMOVE,
        reason=reason,
        target_user=user,
        changes={"avatar_picture": [name, None]},
    )
    return user


def evidence_drop(report: Report) -> None:
    """Inside the caller's transaction: forget the report's copy of a picture (the caller
    saves the row) and delete the file once that commits."""
    name = report.avatar_evidence.name
    if name:
        report.avatar_evidence.name = ""
        transaction.on_commit(lambda: picture_discard(name))


def on_account_deleted(event: AccountDeleted) -> None:
    """A deleted account's pictures kept as evidence go with the rest of its personal data;
    the reports stay, saying they were about a picture."""
    reports = Report.objects.filter(reported_id=event.user_id).exclude(avatar_evidence="")
    names: list[str] = list(reports.values_list("avatar_evidence", flat=True))
    reports.update(avatar_evidence="")
    transaction.on_commit(lambda: _discard_all(names))


def _discard_all(names: list[str]) -> None:
    for name in names:
        picture_discard(name)


def connect() -> None:
    events.subscribe(AccountDeleted, on_account_deleted)
