"""Helpers of the replay viewer's tests: a match with one round played out and one under way,
its analysis made by the engine, and the cards a frame holds."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from games import engine
from games.engine.analysis import analyse_match
from games.engine.codec.moves import move_to_dict
from games.models import AnalysisStatus, Match, MatchAnalysis
from games.replay import logged_rounds
from tests.games.play import play
from tests.support.api import bid_hokum_round, fix_deal
from tests.support.players import Player

Table = Callable[..., tuple[dict[str, Any], list[Player]]]

# Red suits; spades and clubs are drawn black.
RED = {"H", "D"}


def _decline_doubling(state: engine.GameState, legal: list[engine.Move]) -> engine.Move | None:
    # A random Gahwa would end the match in round 1 (R24); nobody doubles here.
    passes = [m for m in legal if isinstance(m, engine.Double) and m.call is engine.DoubleCall.PASS]
    return passes[0] if passes else None


def replay_match(table: Table, monkeypatch: pytest.MonkeyPatch, seed: int = 5) -> Match:
    """Round 1 of the HOKUM_HANDS deal played out (seat 2's Hokum in hearts: its sira of
    spades is declared, and its K and Q of hearts make Baloot), then three moves of round 2.
    The play after the bidding is random from ``seed``, through the services."""
    fix_deal(monkeypatch)
    view, players = table()
    bid_hokum_round(players, view["id"], doubling=[])
    return play(
        view["id"],
        random.Random(seed),
        until=lambda state: state.round_no == 2 and len(state.actions) >= 3,
        prefer=_decline_doubling,
    )


def analysis_make(match: Match, samples: int = 2) -> list[list[Any]]:
    """The engine's analysis of ``match``'s log (few samples: the values matter less than
    where each decision lands), stored ready as the analysis task stores it."""
    decisions = analyse_match(
        engine.get_ruleset(match.ruleset),
        logged_rounds(match),
        seed=f"test-{match.pk}",
        dealer=match.first_dealer,
        target=match.target,
        play_samples=samples,
        bid_samples=samples,
    )
    stored = [
        [
            d.round,
            d.action,
            d.seat,
            "play" if isinstance(d.chosen, engine.Play) else "bid",
            move_to_dict(d.chosen),
            move_to_dict(d.best),
            round(d.chosen_value, 3),
            round(d.best_value, 3),
            d.options,
        ]
        for d in decisions
    ]
    MatchAnalysis.objects.create(
        match=match,
        status=AnalysisStatus.READY,
        seed=f"test-{match.pk}",
        play_samples=samples,
        bid_samples=samples,
        decisions=stored,
    )
    return stored


def frame_cards(frame: dict[str, Any]) -> Counter[str]:
    """Every card a frame places: the hands, the face-up card and the stock, the tricks taken,
    and the trick on the table unless it is one of those taken (a closed trick is shown)."""
    cards: Counter[str] = Counter()
    for hand in frame["hands"]:
        cards.update(hand)
    cards.update([frame["face_up"]] if frame["face_up"] else [])
    cards.update(frame["stock"])
    for trick in frame["tricks"]:
        cards.update(c["card"] for c in trick["cards"])
    if not frame["trick"]["closed"]:
        cards.update(c["card"] for c in frame["trick"]["cards"])
    return cards


def is_red(card: str) -> bool:
    return card[-1] in RED
