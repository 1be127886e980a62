"""The events the players app emits (through ``core.events``) inside its write transaction.

Ids only: listeners (the inbox stream, push notifications) tell the invitee that there is an
invitation, and the client reads it through ``GET /me/invitations``."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class InvitationSent:
    invitation_id: int
    match_id: int
    version: int  # the match's version when the invitation was made
    invitee_id: int
