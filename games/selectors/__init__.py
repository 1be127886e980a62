"""Reads: what each caller may see of a match, their inbox, the score sheet, the move log.

Selectors never write and never import the services or the tasks: reads sit below the one
write path. The modules:

- ``seats``: who sits where, who may see a match (a private one is 404 to outsiders)
- ``views``: the per-seat view of a match (data: the engine's observation and what the match
  adds; ``games.api.bodies`` renders it)
- ``lists``: the caller's matches, the lobby, the inbox and one summary row
- ``logs``: the public move log and the score sheet
- ``stats``: a player's record over their finished matches
- ``spectating``: an outsider's sight of an active match, one complete trick behind
"""

from games.selectors.lists import (
    MatchRow,
    inbox_for,
    live_matches,
    lobby,
    match_row,
    match_rows,
    matches_visible_to,
)
from games.selectors.logs import (
    LogEntry,
    LoggedProject,
    ScoreSheetRow,
    move_log_entries,
    score_sheet,
)
from games.selectors.seats import (
    etag_for,
    inbox_etag,
    is_automatic,
    match_for_viewer,
    seat_display_name,
    seat_json,
)
from games.selectors.spectating import is_spectator_copy, live_version, spectator_copy
from games.selectors.views import FinishedRoundView, MatchView, RoundView, match_view_data

__all__ = [
    "FinishedRoundView",
    "LogEntry",
    "LoggedProject",
    "MatchRow",
    "MatchView",
    "RoundView",
    "ScoreSheetRow",
    "etag_for",
    "inbox_etag",
    "inbox_for",
    "is_automatic",
    "is_spectator_copy",
    "live_matches",
    "live_version",
    "lobby",
    "match_for_viewer",
    "match_row",
    "match_rows",
    "match_view_data",
    "matches_visible_to",
    "move_log_entries",
    "score_sheet",
    "seat_display_name",
    "seat_json",
    "spectator_copy",
]
