"""Seats: who sits where, who may see a match, and whose turns play themselves."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from accounts.avatars.selectors import avatar_json, bot_avatar_json
from accounts.models import User
from games.errors import MatchNotFound
from games.models import BotLevel, Match, Seat, Visibility

# What a bot seat is shown as, in the reader's language; the seat's ``bot`` field keeps the
# level itself (``easy``, ``normal``, ``hard``) for clients. accounts.names keeps players from
# taking a name that says bot, in either script.
BOT_NAMES: dict[str, Promise] = {
    BotLevel.EASY: _("Easy bot"),
    BotLevel.NORMAL: _("Normal bot"),
    BotLevel.HARD: _("Hard bot"),
}

# The bot that plays a human seat gone away (api.md "Away seats"), or a seat left empty.
AWAY_BOT_LEVEL = BotLevel.EASY


def is_automatic(seat: Seat) -> bool:
    """Is this seat's turn played by a bot at once (a bot seat, or a human seat gone away)?"""
    return bool(seat.bot) or seat.user_id is None or seat.away


def playing_level(seat: Seat) -> str:
    """The level of the bot that plays an automatic seat's turns: its own bot's, or the away
    bot's for a human seat gone away."""
    return seat.bot or AWAY_BOT_LEVEL


def match_for_viewer(match_id: int, user: User) -> tuple[Match, Seat | None]:
    """The match and the caller's seat; a private match is 404 to anyone not seated.

    Staff included: they see everything in the admin only (api.md), so the API holds a staff
    account to the same rule as any other player.

    The row is returned as it was read, for the caller's checks and writes. What a viewer is
    shown is built from it by ``viewing.viewed_match``: for an outsider of an active public
    match (a spectator), the match one complete trick behind (``games.selectors.spectating``).
    """
    match = Match.with_seats(match_id)
    if match is None:
        raise MatchNotFound()
    mine = next((s for s in match.seat_list() if s.user_id == user.pk), None)
    if mine is None:
        if match.visibility == Visibility.PRIVATE:
            raise MatchNotFound()
        return match, None
    return match, mine


def seat_display_name(seat: Seat) -> str | None:
    """The name a seat is shown with: its player's, its bot's, or none for an empty seat."""
    user = seat.user  # None without a query when the seat has no user_id
    if user is not None:
        return user.display_name or user.username
    if seat.bot:
        name = BOT_NAMES.get(seat.bot)  # a TextChoices member is its value as a key
        return str(name) if name is not None else f"{seat.bot.capitalize()} bot"
    return None


def seat_avatar(seat: Seat) -> dict[str, Any] | None:
    """The avatar a seat is shown with: its player's (none if they have none), its bot's, or
    none for an empty seat."""
    user = seat.user
    if user is not None:
        return avatar_json(user)
    if seat.bot:
        return bot_avatar_json(seat.bot)
    return None


def seat_json(seat: Seat) -> dict[str, Any]:
    """A seat for the admin's pages (the API renders seats with its SeatViewSerializer)."""
    return {
        "seat": seat.index,
        "display_name": seat_display_name(seat),
        "team": seat.team,
        "bot": seat.bot or None,
        "away": seat.away,
        "empty": seat.is_empty,
    }


def etag_for(match_id: int, version: int, seat_index: int | None) -> str:
    """Identifies the match version as this caller sees it (api.md "ETag"), in the language
    it is rendered in (bot names are translated), so a reader who switched language is not
    told that a copy in the other one is current."""
    language = translation.get_language() or "en"
    suffix = "" if language.startswith("en") else f"-{language}"
    return f'W/"m{match_id}-v{version}-s{"x" if seat_index is None else seat_index}{suffix}"'


def inbox_etag(page: Mapping[str, Any]) -> str:
    """A page of the inbox as it renders (api.md "ETag"): a digest of its content, so it
    changes exactly when the page would."""
    text = json.dumps(page, cls=DjangoJSONEncoder, sort_keys=True, separators=(",", ":"))
    return f'W/"inbox-{hashlib.sha256(text.encode()).hexdigest()[:32]}"'
