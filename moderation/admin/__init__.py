"""The moderation admin: the report and flag queues, sanctions, the moderation log, and
moderation's actions on the match and user pages (registered over games' and accounts' own
admins)."""

from moderation.admin import accounts, flags, log, matches, reports  # noqa: F401 - registers them
