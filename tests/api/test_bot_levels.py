"""Bot levels over HTTP: every level (easy, normal, hard) is accepted wherever a client names
one, shows in the views under its level and its name in both languages, and anything else is
refused with the documented 400 (``invalid``, the field, ``invalid_choice``), changing nothing.
The waiting table's ``POST /matches/{id}/bots`` is covered in tests/games/test_waiting_table.py,
staff's seat-to-bot in tests/moderation/test_match_actions.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games import models
from games.engine.bots import BOT_LEVELS
from games.levels import BotLevel
from games.models import Match, Seat
from tests.support.api import API, assert_field_errors, view_of
from tests.support.players import Player, create_match

pytestmark = pytest.mark.django_db

NAMES = {
    "easy": ("Easy bot", "بوت سهل"),
    "normal": ("Normal bot", "بوت عادي"),
    "hard": ("Hard bot", "بوت صعب"),
}


def test_the_levels_are_easy_normal_and_hard() -> None:
    assert BotLevel.values == ["easy", "normal", "hard"]
    assert set(NAMES) == set(BotLevel.values)
    # games.levels is the one definition; the engine, which may not import it, plays them all.
    assert BotLevel is models.BotLevel
    assert set(BotLevel.values) <= set(BOT_LEVELS)


@pytest.mark.parametrize("level", BotLevel.values)
def test_a_match_is_created_with_bots_of_each_level_in_any_seat(
    make_player: Callable[..., Player], level: str
) -> None:
    creator = make_player()
    created = create_match(creator, bots=dict.fromkeys(("1", "2", "3"), level))
    assert created["status"] == "active"  # four seats filled: it starts at once
    assert [s["bot"] for s in created["seats"]] == [None, level, level, level]
    assert Seat.objects.filter(match_id=created["id"], bot=level).count() == 3
    english, arabic = NAMES[level]
    assert created["seats"][1]["display_name"] == english
    in_arabic = creator.client.get(f"{API}/matches/{created['id']}", HTTP_ACCEPT_LANGUAGE="ar")
    assert in_arabic.json()["seats"][1]["display_name"] == arabic


def test_levels_mix_at_one_table(make_player: Callable[..., Player]) -> None:
    creator = make_player()
    created = create_match(creator, bots={"1": "hard", "2": "easy", "3": "normal"})
    view = view_of(creator, created["id"])
    assert [s["bot"] for s in view["seats"]] == [None, "hard", "easy", "normal"]


@pytest.mark.parametrize("level", ["expert", "HARD", "Hard", "random", "", 2])
def test_an_unknown_level_is_400_naming_the_seat_and_creates_nothing(
    make_player: Callable[..., Player], level: Any
) -> None:
    creator = make_player()
    response = creator.client.post(
        f"{API}/matches", {"bots": {"1": "hard", "3": level}}, format="json"
    )
    assert_field_errors(response, {"bots.3": "invalid_choice"})
    assert not Match.objects.exists()
