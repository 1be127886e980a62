"""Every write to a match: humans, bots, timeouts and staff all change games through here.

One path (architecture.md): lock the match row (``select_for_update``), check the version,
run the move through the engine, append to the log, store the snapshot and bump the version,
all in one transaction; follow-up work (bot turns, deadlines) is scheduled on commit.

Services take domain values (ids, users, an ``engine.Move``) and return domain objects; they
know nothing of HTTP. The modules, from the bottom up:

- ``access``: the row lock and the checks on the caller (seated, in good standing, active),
  and who may take a seat (``require_seatable``, under the lock)
- ``scheduling``: what runs after commit (a bot move, a deadline), enqueued by ``games.tasks``
- ``state``: starting, dealing, storing the snapshot, finishing
- ``matches``: create, join, leave, resign
- ``moves``: apply a move; a player's move; seats between players and bots
- ``turns``: bot, away and expired turns, decided without a lock and applied under it
"""

from games.services.access import (
    barred_from_seats,
    match_lock,
    match_lock_seated,
    require_active,
    require_in_good_standing,
    require_seat,
    require_seatable,
    seat_of,
)
from games.services.analysis import analyses_pending, analysis_make, analysis_open
from games.services.matches import (
    match_bot_add,
    match_bot_remove,
    match_create,
    match_create_again,
    match_join,
    match_leave,
    match_resign,
)
from games.services.moves import (
    move_apply,
    move_make,
    seat_come_back,
    seat_reclaim,
    seat_replace_with_bot,
)
from games.services.scheduling import FollowUp
from games.services.state import match_finish, state_store, version_bump
from games.services.turns import (
    automatic_move_decide,
    bot_turn_play,
    hard_bot_turn_play,
    heartbeat_record,
    turn_expire,
)

__all__ = [
    "FollowUp",
    "analyses_pending",
    "analysis_make",
    "analysis_open",
    "automatic_move_decide",
    "barred_from_seats",
    "bot_turn_play",
    "hard_bot_turn_play",
    "heartbeat_record",
    "match_bot_add",
    "match_bot_remove",
    "match_create",
    "match_create_again",
    "match_finish",
    "match_join",
    "match_leave",
    "match_lock",
    "match_lock_seated",
    "match_resign",
    "move_apply",
    "move_make",
    "require_active",
    "require_in_good_standing",
    "require_seat",
    "require_seatable",
    "seat_come_back",
    "seat_of",
    "seat_reclaim",
    "seat_replace_with_bot",
    "state_store",
    "turn_expire",
    "version_bump",
]
