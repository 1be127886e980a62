"""Request parsing and response documentation for the match API, by what they describe:
``requests`` (write bodies), ``match_view`` (a match as one caller sees it, list rows),
``history`` (move log, score sheet, records), ``moves`` (the move union, in requests, in
``legal_moves`` and in the log) and ``me`` (the caller's own pages)."""

from games.api.serializers.history import *  # noqa: F403
from games.api.serializers.match_view import *  # noqa: F403
from games.api.serializers.me import *  # noqa: F403
from games.api.serializers.moves import *  # noqa: F403
from games.api.serializers.requests import *  # noqa: F403
