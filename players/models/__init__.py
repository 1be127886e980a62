"""The players app's models, one module per feature."""

from players.models.blocks import Block
from players.models.chat import ChatMessage
from players.models.matchmaking import Ticket, TicketStatus
from players.models.ratings import BoardMark, RatedSeat, Rating, RatingChange, WeeklyGain
from players.models.rematch import Rematch
from players.models.social import Follow, Invitation, InvitationStatus

__all__ = [
    "Block",
    "BoardMark",
    "ChatMessage",
    "Follow",
    "Invitation",
    "InvitationStatus",
    "RatedSeat",
    "Rating",
    "RatingChange",
    "Rematch",
    "Ticket",
    "TicketStatus",
    "WeeklyGain",
]
