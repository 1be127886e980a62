"""Display names: what other players see next to a seat, so it must be visible and honest.

``clean_display_name`` is the one rule, for registration and any later profile edit:

- NFKC-normalised (fullwidth and other compatibility forms become their plain letters), runs
  of spaces collapsed, the ends trimmed;
- no control (Cc), format (Cf: bidi controls, zero-width spaces and joiners), private-use,
  surrogate, unassigned or line/paragraph-separator characters, nor the filler characters
  that Unicode calls letters or symbols but that draw nothing (Hangul fillers, the blank
  Braille pattern); no more than a few combining marks stacked on one letter;
- not empty once that is done;
- not the anonymous name of a deleted account (``deleted-<id>``);
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
# Words that make a bot's name with "bot" run on ("EasyBot"): every bot level (games.levels,
# which accounts may not import: tests/security/test_display_names.py checks they agree) and
# the engine's ``random`` test bot.
_LEVEL_WORDS = ("easy", "normal", "random", "hard")
_RESERVED = _BOT_WORDS | {level + word for level in _LEVEL_WORDS for word in ("bot", "robot")}
# Look-alikes of Latin letters (after casefolding: capitals fold to these small forms first)
# from Cyrillic, Greek, IPA and small capitals, and the Arabic stretching stroke: enough to
# spell the reserved words (Easy Bot with a Cyrillic E and B, an open E, a hooked b, small
# capitals) without Latin letters.
_LOOK_ALIKES = {
    "a": "\u0430\u03b1\u0251\u1d00",  # Cyrillic a, alpha, Latin alpha, small capital A
    # ve, soft sign, beta, small B, hooked b, Cherokee be (capital and small)
    "b": "\u0432\u044c\u03b2\u0299\u0253\u0185\u13f4\u13fc",
    "c": "\u0441\u03f2\u0188\u1d04",  # Cyrillic es, lunate sigma, hooked c, small capital C
    "d": "\u0501\u0257\u1d05",  # Cyrillic komi de, hooked d, small capital D
    "e": "\u0435\u03b5\u025b\u01dd\u1d07\u0454",  # Cyrillic ie, epsilon, open e, turned e
    "h": "\u04bb\u043d\u029c",  # Cyrillic shha, en (capital looks like H), small capital H
    "i": "\u0456\u03b9\u0131\u026a",  # Cyrillic i, iota, dotless i, small capital I
    "k": "\u043a\u03ba\u1d0b",  # Cyrillic ka, kappa, small capital K
    "l": "\u029f\u04cf",  # small capital L, Cyrillic palochka
    "m": "\u043c\u1d0d",  # Cyrillic em (capital looks like M), small capital M
    "n": "\u0274\u03b7",  # small capital N, eta
    # zero, Cyrillic o, omicron, small capital O, Armenian oh (its capital folds to it)
    "o": "0\u043e\u03bf\u1d0f\u0275\u0585",
    "p": "\u0440\u03c1\u1d18",  # Cyrillic er, rho, small capital P
    "r": "\u0433\u0280\u027e",  # Cyrillic ghe, small capital R, fish-hook r
    "s": "\u0455\ua7a9",  # Cyrillic dze, s with oblique stroke
    "t": "\u0442\u03c4\u1d1b",  # Cyrillic te (capital looks like T), tau, small capital T
    "u": "\u03c5\u1d1c",  # upsilon, small capital U
    "x": "\u0445\u03c7",  # Cyrillic ha, chi
    "y": "\u0443\u028f\u04af",  # Cyrillic u, small capital Y, straight u
}
_FOLD = str.maketrans(
    {
        **{alike: letter for letter, alikes in _LOOK_ALIKES.items() for alike in alikes},
        "8": "b",
        "\u0640": "",  # Arabic tatweel, the stretching stroke
    }
)
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
# Digits separate words too ("Bot2"), once 0 and 8 have been read as letters.
_SEPARATORS = re.compile(r"[\W_\d]+")
_SPACES = re.compile(r"\s+")


def clean_display_name(raw: str) -> str:
    """The name to store, or ``ValidationError`` (code ``invalid_character``,
    ``no_visible_characters``, ``too_long_normalised`` or ``reserved``)."""
    name = unicodedata.normalize("NFKC", raw)
    _refuse_invisible(name)
    name = _SPACES.sub(" ", name).strip()
    if not name:
        raise ValidationError(
            _("A display name needs visible characters."), code="no_visible_characters"
        )
    if len(name) > MAX_LENGTH:
        raise ValidationError(
            _("At most %(limit)d characters once normalised.") % {"limit": MAX_LENGTH},
            code="too_long_normalised",
        )
    if claims_to_be_a_bot(name):
        raise ValidationError(_("Names that say bot are kept for the bots."), code="reserved")
    if looks_like_a_deleted_account(name):
        raise ValidationError(
            _("Names like deleted-12 are kept for deleted accounts."), code="reserved"
        )
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


def looks_like_a_deleted_account(name: str) -> bool:
    """A deleted account's seat shows its anonymous username, ``deleted-<id>``: no living
    player may look like one ("Deleted 12", or deleted_12 with a Cyrillic e)."""
    words = [w for w in _SEPARATORS.split(_skeleton(name)) if w]
    return bool(words) and words[0] == "deleted" and any(c.isdigit() for c in name)


def _skeleton(name: str) -> str:
    """Accents dropped, camel case split ("EasyBot"), casefolded, look-alikes folded."""
    bare = "".join(c for c in unicodedata.normalize("NFKD", name) if not _is_mark(c))
    return _CAMEL.sub(" ", bare).casefold().translate(_FOLD)


def _is_mark(char: str) -> bool:
    """A mark drawn on the letter before it (accents, Arabic vowel marks)."""
    return unicodedata.category(char) in ("Mn", "Me")
