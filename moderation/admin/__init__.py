"""The moderation admin: the report queue, sanctions, the moderation log, and moderation's
actions on the match and user pages (registered over games' and accounts' own admins)."""

from moderation.admin import accounts, log, matches, reports  # noqa: F401 - registers them
