"""The events the players app emits (through ``core.events``) inside its write transaction.

Ids and public facts only: listeners (the streams, push notifications) read what a given viewer
may see; an invitee reads the invitation itself through ``GET /me/invitations``."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class InvitationSent:
    invitation_id: int
    match_id: int
    version: int  # the match's version when the invitation was made
    invitee_id: int


@dataclass(frozen=True, slots=True)
class ChatSent:
    """A quick-chat phrase was sent to a match's table (not a move: no version)."""

    match_id: int
    message_id: int
    seat: int
    sender_id: int
