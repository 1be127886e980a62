"""Quick chat: a fixed list of phrases and emotes (no free text), and the messages sent."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.db import models


@dataclass(frozen=True, slots=True)
class Phrase:
    """One entry of the fixed list: its stable id, whether it is words or an emote, and its
    text in every language the service speaks (clients show the one they need)."""

    id: str
    kind: str  # "phrase" | "emote"
    en: str
    ar: str


# The table's phrases, in the order a client shows them. Ids are stable forever: messages
# store them, clients switch on them. Both languages are served side by side (a client may
# show the sender's words in its own language), so they are data here, not a gettext catalog.
PHRASES: tuple[Phrase, ...] = (
    Phrase("hello", "phrase", "Hello!", "السلام عليكم!"),
    Phrase("good_luck", "phrase", "Good luck!", "بالتوفيق!"),
    Phrase("well_played", "phrase", "Well played!", "أحسنت!"),
    Phrase("nice_one_partner", "phrase", "Nice one, partner!", "كفو يا شريكي!"),
    Phrase("thanks", "phrase", "Thanks!", "شكراً!"),
    Phrase("sorry", "phrase", "Sorry!", "آسف!"),
    Phrase("oops", "phrase", "Oops!", "أوه!"),
    Phrase("hurry_please", "phrase", "Hurry up, please!", "بسرعة لو سمحت!"),
    Phrase("thinking", "phrase", "Let me think…", "خلني أفكر…"),
    Phrase("good_game", "phrase", "Good game!", "لعبة حلوة!"),
    Phrase("rematch", "phrase", "Rematch?", "نعيدها؟"),
    Phrase("bye", "phrase", "Bye!", "مع السلامة!"),
    Phrase("laugh", "emote", "😂", "😂"),
    Phrase("clap", "emote", "👏", "👏"),
    Phrase("thumbs_up", "emote", "👍", "👍"),
    Phrase("wow", "emote", "😮", "😮"),
    Phrase("cool", "emote", "😎", "😎"),
)
PHRASE_IDS = frozenset(p.id for p in PHRASES)


class ChatMessage(models.Model):
    """A phrase sent to a match's table by the player in ``seat``. Not a move: it bumps no
    version. ``sender`` is the account (a report names it; a deleted account's row stays)."""

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="chat")
    seat = models.PositiveSmallIntegerField()
    sender = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_sent"
    )
    phrase = models.CharField(max_length=32, choices=[(p.id, p.en) for p in PHRASES])
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "id"]
        indexes = [models.Index(fields=["match", "id"], name="chat_log")]
        constraints = [models.CheckConstraint(condition=models.Q(seat__lte=3), name="chat_seat")]

    def __str__(self) -> str:
        return f"chat {self.pk} m{self.match_id} s{self.seat}: {self.phrase}"
