"""``selectors.declarations_revealed`` (what the stream's ``reveal`` carries) against the HTTP
log, after every move of a whole round, for each seat and a spectator: it names exactly the
declarations whose cards ``GET /moves`` showed hidden at the previous version and shows now, each
as that log shows it, and never one the log still hides."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games import selectors
from games.api import bodies
from games.models import Match
from tests.support.api import HOKUM_BIDS, fix_deal, legal_step, play, state_of
from tests.support.live import log_of
from tests.support.players import player_register

pytestmark = pytest.mark.django_db


def _hidden(log: list[dict[str, Any]]) -> set[int]:
    return {
        item["seq"]
        for item in log
        if item["type"] == "declare" and any(p["cards"] is None for p in item["projects"])
    }


def test_it_names_the_declarations_the_log_shows_once_trick_1_is_complete(
    table: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Seat 2 buys Hokum and holds a sira: every round has a declaration to reveal.
    fix_deal(monkeypatch)
    view, players = table(visibility="public")
    match_id = view["id"]
    spectator = player_register()
    personas = [*players, spectator]
    for seat, call in HOKUM_BIDS:
        play(players, match_id, seat, {"type": "bid", "call": call})
    rng = random.Random(2)
    before = [log_of(p, match_id) for p in personas]
    version = Match.objects.get(pk=match_id).version
    revealed = 0
    while state_of(match_id).round_no == 1:
        new = legal_step(players, match_id, rng, declare_rate=1.0, declines_doubling=True)
        if new["status"] != "active":
            break
        match = Match.objects.get(pk=match_id)
        for index, persona in enumerate(personas):
            mine = next((s for s in match.seat_list() if s.user_id == persona.id), None)
            viewed = selectors.viewed_match(match, mine)
            now = log_of(persona, match_id)
            by_seq = {item["seq"]: item for item in now}
            # The reveals a reader that read up to the previous version needs, with their
            # items as the log shows them now.
            shown = {
                item["seq"]: item
                for _, _, items in bodies.declarations_revealed(
                    viewed, version, viewed.header.version
                )
                for item in items
            }
            assert all(item == by_seq[seq] for seq, item in shown.items())
            assert not set(shown) & _hidden(now), "a reveal of cards the log still hides"
            was_hidden = _hidden(before[index]) - _hidden(now)
            # Exactly those: a reader that read every version held each of them hidden.
            assert was_hidden == set(shown), (index, was_hidden, shown)
            if index == 4:
                assert not was_hidden  # a spectator sees declarations only after trick 1
            revealed += len(was_hidden)
            before[index] = now
        version = match.version
    assert revealed >= 3  # the other three seats saw seat 2's sira hidden, then shown
