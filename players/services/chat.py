"""Quick chat: a seated player sends one of the fixed phrases to the table."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from core import events
from games import selectors as game_selectors
from games.errors import NotAPlayer
from games.models import Match, MatchStatus
from players.errors import ChatClosed, UnknownPhrase
from players.events import ChatSent
from players.models import ChatMessage
from players.models.chat import PHRASE_IDS

# A table may still say "good game" for a while after the match ends.
CHAT_OPEN_AFTER_END = timedelta(minutes=10)


def chat_is_open(match: Match) -> bool:
    if match.status in (MatchStatus.WAITING, MatchStatus.ACTIVE):
        return True
    ended = match.finished_at or match.updated_at
    return ended >= timezone.now() - CHAT_OPEN_AFTER_END


def chat_seat(*, match_id: int, user: User) -> tuple[Match, int]:
    """The match and the caller's seat, for the chat's reads and writes: a private match is
    404 to anyone not seated, a public one 403 ``not_a_player`` (the chat is the table's)."""
    match, seat = game_selectors.match_for_viewer(match_id, user)
    if seat is None:
        raise NotAPlayer()
    return match, seat.index


@transaction.atomic
def chat_send(*, user: User, match_id: int, phrase: str) -> ChatMessage:
    """Send ``phrase`` to the table of a match the caller sits in (waiting, active, or ended
    less than ``CHAT_OPEN_AFTER_END`` ago). Not a move: the match row is neither locked nor
    changed, and no version is bumped; the stream hears of it through ``ChatSent``."""
    match, seat = chat_seat(match_id=match_id, user=user)
    if not chat_is_open(match):
        raise ChatClosed()
    if phrase not in PHRASE_IDS:
        raise UnknownPhrase(
            errors=[
                {
                    "field": "phrase",
                    "code": "unknown_phrase",
                    "detail": _("Not one of GET /chat/phrases."),
                }
            ]
        )
    message = ChatMessage.objects.create(match=match, seat=seat, sender=user, phrase=phrase)
    events.emit(ChatSent(match_id=match.pk, message_id=message.pk, seat=seat, sender_id=user.pk))
    return message
