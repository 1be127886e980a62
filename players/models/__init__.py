"""The players app's models, one module per feature."""

from players.models.blocks import Block
from players.models.matchmaking import Ticket, TicketStatus
from players.models.ratings import Rating

__all__ = ["Block", "Rating", "Ticket", "TicketStatus"]
