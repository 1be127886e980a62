"""What the stream keeps in the database: browser tickets, and (on the embedded default) the
events a web process tails to hear of commits made by other processes."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class WsTicket(models.Model):
    """A single-use ticket for a browser's WebSocket upgrade (``?ticket=``), which cannot carry
    an Authorization header. Only its SHA-256 is stored, as for tokens; it is bound to the token
    that asked for it, so revoking that token ends the connections it opened."""

    key_hash = models.CharField(max_length=64, unique=True)
    token = models.ForeignKey("accounts.AuthToken", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"ws ticket {self.pk} of {self.user_id}"


class LiveEvent(models.Model):
    """One committed event, written inside the transaction that caused it, for the table relay
    (live/relay.py): each web process tails ``id > last`` and fans out to its connections. The
    rows are ids and public facts only; the consumers re-read the match (or its chat) for
    content."""

    # Null for a tournament note about no one match.
    match_id = models.BigIntegerField(null=True)
    # Null for a chat note (chat is not a move), which names its message in ``chat_id``.
    version = models.IntegerField(null=True)
    chat_id = models.BigIntegerField(null=True)
    # The player an inbox event is for; null for a match's version nudge.
    user_id = models.BigIntegerField(null=True)
    kind = models.CharField(max_length=32)
    tournament_id = models.BigIntegerField(null=True)
    round = models.PositiveSmallIntegerField(null=True)
    deadline = models.DateTimeField(null=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    def __str__(self) -> str:
        if self.tournament_id is not None:
            return f"{self.kind} t{self.tournament_id} r{self.round}"
        if self.chat_id is not None:
            return f"{self.kind} m{self.match_id} c{self.chat_id}"
        return f"{self.kind} m{self.match_id} v{self.version}"
