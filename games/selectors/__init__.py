"""Reads: what each caller may see of a match, their inbox, the score sheet, the move log.

Selectors never write and never import the services or the tasks: reads sit below the one
write path. The modules:

- ``seats``: who sits where, who may see a match (a private one is 404 to outsiders)
- ``views``: the per-seat view of a match (data: the engine's observation and what the match
  adds; ``games.api.bodies`` renders it)
- ``lists``: the caller's matches, the lobby, the inbox and one summary row
- ``logs``: the public move log and the score sheet
- ``stats``: a player's record over their finished matches
- ``spectating``: the rule of an outsider's sight of an active match, one complete trick behind
- ``viewing``: what every viewer's render takes, the match as one viewer sees it at their cut
  (``ViewedMatch``, an immutable value built from the row, never the row itself)
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
    Reveal,
    ScoreSheetRow,
    declarations_revealed,
    move_log_entries,
    score_sheet,
)
from games.selectors.seats import (
    etag_for,
    inbox_etag,
    is_automatic,
    match_for_viewer,
    seat_avatar,
    seat_display_name,
    seat_json,
)
from games.selectors.viewing import (
    MatchHeader,
    ViewedMatch,
    match_header,
    viewed_match,
    viewed_match_for,
)
from games.selectors.views import FinishedRoundView, MatchView, RoundView, match_view_data

__all__ = [
    "FinishedRoundView",
    "LogEntry",
    "LoggedProject",
    "MatchHeader",
    "MatchRow",
    "MatchView",
    "Reveal",
    "RoundView",
    "ScoreSheetRow",
    "ViewedMatch",
    "declarations_revealed",
    "etag_for",
    "inbox_etag",
    "inbox_for",
    "is_automatic",
    "live_matches",
    "lobby",
    "match_for_viewer",
    "match_header",
    "match_row",
    "match_rows",
    "match_view_data",
    "matches_visible_to",
    "move_log_entries",
    "score_sheet",
    "seat_avatar",
    "seat_display_name",
    "seat_json",
    "viewed_match",
    "viewed_match_for",
]
