"""Display names: NFKC-normalised, visible, and not claiming to be a bot.

The attack: a player named "Easy bot" sat at a table looking like one of the house bots, and
names of zero-width or bidi-control characters showed as nothing, or reordered the text
around them.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from rest_framework.test import APIClient

from accounts.models import User
from accounts.names import clean_display_name
from games.engine.bots import BOT_LEVELS
from games.levels import BotLevel
from tests.support.api import API, assert_field_errors
from tests.support.auth import PASSWORD

_usernames = itertools.count(1)


def register(client: APIClient, display_name: str) -> Any:
    body = {"username": f"name{next(_usernames)}", "password": PASSWORD}
    return client.post(
        f"{API}/auth/register", {**body, "display_name": display_name}, format="json"
    )


REFUSED = {
    # Bots' names, as seats show them, and ways of writing them.
    "Easy bot": "reserved",
    "Normal bot": "reserved",
    "normal BOT": "reserved",
    "Bot": "reserved",
    "EasyBot": "reserved",
    "B0T": "reserved",
    "b.o.t": "reserved",
    "Bot 2": "reserved",
    "\u0412\u041e\u0422": "reserved",  # Cyrillic capitals that look like BOT
    "\uff22\uff4f\uff54": "reserved",  # fullwidth "Bot"
    "I am a robot": "reserved",
    "روبوت": "reserved",  # robot
    "بوت": "reserved",  # bot
    "البوت": "reserved",  # the bot
    "بـوت سهل": "reserved",  # "easy bot", with a stretching stroke
    "\u0415asy\u0412ot": "reserved",  # Cyrillic capital Ie and Ve in "EasyBot"
    "\u0190asy \u0253ot": "reserved",  # open E and hooked b: "Easy bot"
    "\u0280\u1d0f\u0299\u1d0f\u1d1b": "reserved",  # small capitals: "robot"
    "B\u0585t": "reserved",  # Armenian oh
    "\u13f4OT": "reserved",  # Cherokee be
    "\u13fc\u0555t": "reserved",  # Cherokee small be, Armenian capital oh
    # The anonymous name a deleted account's seat shows.
    "deleted-11": "reserved",
    "Deleted 10": "reserved",
    "d\u0435leted_7": "reserved",  # with a Cyrillic e
    # Invisible or direction-changing characters.
    "\u200b": "invalid_character",  # zero-width space
    "Layla\u200d": "invalid_character",  # zero-width joiner
    "\u202eLayla": "invalid_character",  # right-to-left override
    "Lay\u2066la": "invalid_character",  # left-to-right isolate
    "\u061cأمل": "invalid_character",  # Arabic letter mark
    "\ufeffLayla": "invalid_character",  # byte order mark
    "Layla\u00ad": "invalid_character",  # soft hyphen
    "Layla\x07": "invalid_character",  # a control character
    "Lay\nla": "invalid_character",
    "\u3164": "invalid_character",  # Hangul filler, a "letter" that draws nothing
    "\u2800\u2800": "invalid_character",  # Braille blank
    "a" + "\u0301\u0302\u0303\u0304\u0306" * 2: "invalid_character",  # a tower of accents
    # Nothing left once normalised.
    "\u3000": "no_visible_characters",  # ideographic space
    "\u2002 \u2003": "no_visible_characters",
}


@pytest.mark.parametrize(("name", "code"), REFUSED.items(), ids=[repr(n) for n in REFUSED])
def test_register_refuses_the_name(db: None, anon: APIClient, name: str, code: str) -> None:
    # Well formed by the schema, refused by accounts.names: a 422 naming the field.
    refusal = "display_name_reserved" if code == "reserved" else "invalid_display_name"
    assert_field_errors(register(anon, name), {"display_name": code}, status=422, code=refusal)
    assert not User.objects.exists()


@pytest.mark.parametrize(
    ("name", "stored"),
    [
        ("أمل", "أمل"),
        ("عبدالله", "عبدالله"),
        ("أَمَل", "أَمَل"),  # with its vowel marks
        ("محمد ٢", "محمد ٢"),
        ("Layla", "Layla"),
        ("Zoë", "Zoë"),
        ("\uff2c\uff41\uff59\uff4c\uff41", "Layla"),  # fullwidth, NFKC-normalised
        ("Layla\u00a0\u00a0Harbi", "Layla Harbi"),  # runs of spaces become one
        ("Abbot", "Abbot"),  # "bot" inside a word is not a claim
        ("Talbot", "Talbot"),
        ("Robotics fan", "Robotics fan"),
        ("Easy", "Easy"),
        ("Putin بوتين", "Putin بوتين"),
        ("Deleted", "Deleted"),  # a word, not an account's anonymous name
        ("\u0412\u0430\u0441\u044f", "\u0412\u0430\u0441\u044f"),  # Vasya, in Cyrillic
    ],
)
def test_register_keeps_ordinary_names(db: None, anon: APIClient, name: str, stored: str) -> None:
    response = register(anon, name)
    assert response.status_code == 201, response.content
    assert response.json()["user"]["display_name"] == stored
    assert User.objects.get().display_name == stored


def test_every_bot_seat_name_is_reserved() -> None:
    """The names bot seats are shown with (games.selectors.seat_json)."""
    for level in BotLevel:
        with pytest.raises(ValidationError) as refused:
            clean_display_name(f"{level.value.capitalize()} bot")
        assert refused.value.code == "reserved"


@pytest.mark.parametrize("level", sorted({*BotLevel.values, *BOT_LEVELS}))
def test_every_bot_level_run_on_with_bot_is_reserved(level: str) -> None:
    """Every level (games.levels) and every bot of the engine's, written as one word: accounts
    keeps its own list of the words (it may not import games), so it must keep up."""
    for name in (f"{level.capitalize()}Bot", f"{level}robot"):
        with pytest.raises(ValidationError) as refused:
            clean_display_name(name)
        assert refused.value.code == "reserved"


def test_a_name_that_grows_past_the_limit_when_normalised_is_refused() -> None:
    # U+FDFA is one character that NFKC spells out as 18.
    with pytest.raises(ValidationError) as refused:
        clean_display_name("\ufdfa" * 3)
    assert refused.value.code == "too_long_normalised"
