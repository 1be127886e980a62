"""Reads of the quick chat: a table's log as one player may see it."""

from __future__ import annotations

from games.models import Match
from players.models import ChatMessage
from players.selectors.blocks import blocked_by


def chat_log(match: Match, viewer_id: int, after: int, limit: int) -> list[ChatMessage]:
    """At most ``limit`` messages of ``match`` with an id above ``after``, oldest first, less
    those of senders ``viewer_id`` has blocked (they are not shown to the blocker)."""
    hidden = blocked_by(viewer_id)
    return list(
        ChatMessage.objects.filter(match=match, id__gt=after)
        .exclude(sender_id__in=hidden)
        .order_by("id")[:limit]
    )


def chat_last_id(match_id: int) -> int:
    """The newest message id of a match's chat (0 when there is none)."""
    last = (
        ChatMessage.objects.filter(match_id=match_id)
        .order_by("-id")
        .values_list("id", flat=True)
        .first()
    )
    return int(last or 0)
