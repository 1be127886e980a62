"""The games admin: match pages and read-only lists of seats, rounds and moves.

Read-only by design: game state changes only through the services, so the admin has no add,
edit or delete for game rows. Moderation's actions on matches are added by the moderation
app (``moderation.admin``), which registers its own subclass of ``MatchAdmin``.
"""

from games.admin import matches, rows  # noqa: F401 - registers the model admins
