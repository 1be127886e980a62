"""Display names: what other players see next to a seat, so it must be visible and honest.

``clean_display_name`` is the one rule, for registration and any later profile edit:

- NFKC-normalised (fullwidth and other compatibility forms become their plain letters), runs
  of spaces collapsed, the ends trimmed;
- no control (Cc), format (Cf: bidi controls, zero-width spaces and joiners), private-use,
  surrogate, unassigned or line/paragraph-separator characters, nor the filler characters
  that Unicode calls letters or symbols but that draw nothing (Hangul fillers, the blank
  Braille pattern); no more than a few combining marks stacked on one letter;
- not empty once that is done;
- not a claim to be a bot: bot seats are shown as "Easy bot", "Normal bot" (games.selectors),
  so any name with the word bot or robot in it, in Latin or Arabic script, is reserved, however
  it is cased, spaced or spelt with look-alike letters.

Arabic names ("أمل", "عبدالله", with or without diacritics) are ordinary letters and pass.
"""

from __future__ import annotations

import re
import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

MAX_LENGTH = 40  # accounts.User.display_name

_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})
# Invisible, yet letters (Lo), symbols (So) or marks (Mn) to Unicode, so the categories miss them.
_INVISIBLE = frozenset(
    "\u034f"  # combining grapheme joiner
    "\u115f\u1160\u3164\uffa0"  # Hangul fillers
    "\u17b4\u17b5"  # Khmer inherent vowels
    "\u2800"  # Braille pattern blank
)
# Arabic uses up to about three marks on a letter (shadda, a vowel, a dagger alef); towers of
# marks that spill over the neighbouring lines of a screen are refused.
_MAX_STACKED_MARKS = 4

_BOT_WORDS = frozenset({"bot", "bots", "robot", "robots", "بوت", "بوتات", "روبوت", "روبوتات"})
# The bot levels there are or might be, for "EasyBot" written as one word.
_LEVELS = ("easy", "normal", "random", "hard")
_RESERVED = _BOT_WORDS | {level + word for level in _LEVELS for word in ("bot", "robot")}
# Look-alikes of the letters of "bot" (after casefolding), and the Arabic stretching stroke.
_FOLD = str.maketrans(
    {
        "0": "o",
        "8": "b",
        "\u043e": "o",  # Cyrillic o
        "\u03bf": "o",  # Greek omicron
        "\u1d0f": "o",  # small capital O
        "\u0432": "b",  # Cyrillic ve (its capital looks like B)
        "\u044c": "b",  # Cyrillic soft sign
        "\u03b2": "b",  # Greek beta
        "\u0299": "b",  # small capital B
        "\u0442": "t",  # Cyrillic te (its capital looks like T)
        "\u03c4": "t",  # Greek tau
        "\u1d1b": "t",  # small capital T
        "\u0640": "",  # Arabic tatweel, the stretching stroke
    }
)
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
# Digits separate words too ("Bot2"), once 0 and 8 have been read as letters.
_SEPARATORS = re.compile(r"[\W_\d]+")
_SPACES = re.compile(r"\s+")


def clean_display_name(raw: str) -> str:
    """The name to store, or ``ValidationError`` (code ``invalid_character``, ``blank``,
    ``max_length`` or ``reserved``)."""
    name = unicodedata.normalize("NFKC", raw)
    _refuse_invisible(name)
    name = _SPACES.sub(" ", name).strip()
    if not name:
        raise ValidationError(_("A display name needs visible characters."), code="blank")
    if len(name) > MAX_LENGTH:
        raise ValidationError(
            _("At most %(limit)d characters once normalised.") % {"limit": MAX_LENGTH},
            code="max_length",
        )
    if claims_to_be_a_bot(name):
        raise ValidationError(_("Names that say bot are kept for the bots."), code="reserved")
    return name


def _refuse_invisible(name: str) -> None:
    stacked = 0
    for char in name:
        if unicodedata.category(char) in _REFUSED_CATEGORIES or char in _INVISIBLE:
            raise ValidationError(
                _("The character %(char)s is not allowed in a display name.")
                % {"char": f"U+{ord(char):04X}"},
                code="invalid_character",
            )
        stacked = stacked + 1 if _is_mark(char) else 0
        if stacked > _MAX_STACKED_MARKS:
            raise ValidationError(
                _("Too many marks stacked on one letter."), code="invalid_character"
            )


def claims_to_be_a_bot(name: str) -> bool:
    words = [w for w in _SEPARATORS.split(_skeleton(name)) if w]
    whole = "".join(words)  # "B.O.T", "b o t", "Easy-Bot"
    # With and without the Arabic article: "البوت" is "the bot".
    candidates = {whole, *words} | {w.removeprefix("ال") for w in words}
    return not candidates.isdisjoint(_RESERVED)


def _skeleton(name: str) -> str:
    """Accents dropped, camel case split ("EasyBot"), casefolded, look-alikes folded."""
    bare = "".join(c for c in unicodedata.normalize("NFKD", name) if not _is_mark(c))
    return _CAMEL.sub(" ", bare).casefold().translate(_FOLD)


def _is_mark(char: str) -> bool:
    """A mark drawn on the letter before it (accents, Arabic vowel marks)."""
    return unicodedata.category(char) in ("Mn", "Me")
