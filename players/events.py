"""The events the players app emits (through ``core.events``), inside the write transaction.

Ids and public facts only: a listener (the live stream) reads what a given viewer may see.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ChatSent:
    """A quick-chat phrase was sent to a match's table (not a move: no version)."""

    match_id: int
    message_id: int
    seat: int
    sender_id: int
