"""The players app's models, one module per feature."""

from players.models.blocks import Block
from players.models.chat import ChatMessage
from players.models.ratings import Rating

__all__ = ["Block", "ChatMessage", "Rating"]
