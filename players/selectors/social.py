"""Reads of follows, blocks, invitations and rematches, as the API renders them."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from accounts.avatars.selectors import avatar_json
from accounts.models import User
from core import clock
from games.errors import NotAPlayer
from games.models import Match, MatchStatus
from games.selectors import match_for_viewer
from players.errors import RematchNotFound, UserNotFound
from players.models import Block, Follow, Invitation, InvitationStatus, Rematch


def user_by_username(username: str) -> User:
    """The live account with that username; a deleted one is no one (its name was erased
    with the rest of its personal data), so it is the same answer as an unknown name."""
    if "\x00" in username:  # PostgreSQL refuses NUL in text; no username holds one
        raise UserNotFound()
    user = User.objects.filter(username__iexact=username, deleted_at__isnull=True).first()
    if user is None:
        raise UserNotFound()
    return user


def person_json(user: User) -> dict[str, Any]:
    return {
        "username": user.username,
        "display_name": user.display_name or user.username,
        "avatar": avatar_json(user),
    }


def friends_of(user: User) -> QuerySet[Follow]:
    """Whom ``user`` follows, newest first; deleted accounts are left out."""
    return (
        Follow.objects.filter(follower=user, followed__deleted_at__isnull=True)
        .select_related("followed")
        .order_by("-created_at", "-pk")
    )


def follow_json(follow: Follow) -> dict[str, Any]:
    return {**person_json(follow.followed), "since": follow.created_at}


def blocks_of(user: User) -> QuerySet[Block]:
    return (
        Block.objects.filter(blocker=user, blocked__deleted_at__isnull=True)
        .select_related("blocked")
        .order_by("-created_at", "-pk")
    )


def block_json(block: Block) -> dict[str, Any]:
    return {**person_json(block.blocked), "since": block.created_at}


def invitations_pending_for(user: User) -> QuerySet[Invitation]:
    """The caller's open invitations to matches that still wait for players, newest first."""
    return (
        Invitation.objects.filter(
            invitee=user, status=InvitationStatus.PENDING, match__status=MatchStatus.WAITING
        )
        .select_related("match", "inviter", "invitee")
        .order_by("-created_at", "-pk")
    )


def invitation_json(invitation: Invitation) -> dict[str, Any]:
    match = invitation.match
    return {
        "id": invitation.pk,
        "match_id": invitation.match_id,
        "status": invitation.status,
        "inviter": person_json(invitation.inviter),
        "invitee": person_json(invitation.invitee),
        "ruleset": match.ruleset,
        "target": match.target,
        "turn_seconds": match.turn_seconds,
        "visibility": match.visibility,
        "created_at": invitation.created_at,
        "responded_at": invitation.responded_at,
    }


def human_seats(match: Match) -> list[int]:
    return [s.index for s in match.seat_list() if s.user_id is not None]


def rematch_of(*, user: User, match_id: int) -> tuple[Rematch, Match]:
    """The rematch proposal of a match the caller sits in: a private match is 404 to anyone
    else, a public one 403 (``not_a_player``), as for every write to a match."""
    match, seat = match_for_viewer(match_id, user)
    if seat is None:
        raise NotAPlayer()
    rematch = Rematch.objects.filter(match=match).first()
    if rematch is None:
        raise RematchNotFound()
    return rematch, match


# How long a proposal waits for every human to accept.
REMATCH_SECONDS = 600


def rematch_cancelled(rematch: Rematch) -> bool:
    """Was the proposal called off (a player of the table can no longer play)?"""
    return rematch.new_match_id is None and rematch.cancelled_at is not None


def rematch_status(rematch: Rematch) -> str:
    if rematch.new_match_id is not None:
        return "started"
    if rematch_cancelled(rematch):
        return "cancelled"
    if clock.now() >= rematch.expires_at:
        return "expired"
    return "pending"


def rematch_json(rematch: Rematch, human_seats: list[int]) -> dict[str, Any]:
    accepted = sorted(rematch.accepted_seats)
    return {
        "match_id": rematch.match_id,
        "status": rematch_status(rematch),
        "proposed_by_seat": rematch.accepted_seats[0],
        "accepted_seats": accepted,
        "waiting_for_seats": [s for s in human_seats if s not in accepted],
        "expires_at": rematch.expires_at,
        "new_match_id": rematch.new_match_id,
    }
