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


@dataclass(frozen=True, slots=True)
class RematchCancelled:
    """A pending rematch proposal was called off: a player of the table can no longer play
    (account deleted, suspended or banned), or two who had accepted block each other now.
    ``user_ids``: the table's humans who can still play, told on ``/ws/v1/me``; who was lost,
    and why, is not said."""

    match_id: int  # the finished match whose rematch it was
    version: int  # that match's version (unchanged by the cancellation)
    user_ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Streak:
    """``winner_id`` beat ``loser_id`` (on opposite teams) in each of these rated matches
    (their meetings of the flag's window that the winner won), oldest first."""

    winner_id: int
    loser_id: int
    match_ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class OneSidedResults:
    """A rated result left one or more pairs of opponents with one-sided results
    (``BALOOT["ONE_SIDED_FLAG_WINS"]`` wins or more, and ``ONE_SIDED_FLAG_SHARE`` of their
    meetings, within ``BALOOT["ONE_SIDED_FLAG_DAYS"]`` days): a sign of rating farming (issue
    23) for the moderators, who decide (moderation listens). Emitted after every such result,
    so the same wins come again with the next one: the listener counts only the matches not
    yet evidence for that pair."""

    match_id: int  # the match whose result completed the streaks
    ruleset: str
    streaks: tuple[Streak, ...]
