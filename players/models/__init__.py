"""The players app's models, one module per feature."""

from players.models.blocks import Block
from players.models.ratings import RatedSeat, Rating, RatingChange, WeeklyGain

__all__ = ["Block", "RatedSeat", "Rating", "RatingChange", "WeeklyGain"]
