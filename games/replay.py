"""Rebuild a match's engine state from the truth: each round's deck and the move log.

The stored snapshot is only a cache of this (architecture.md "State is the replay of the
log"): ``manage.py rebuild_snapshots`` compares the two and rewrites a snapshot that differs,
and tests prove they agree after real play. The replay is the engine's one replay,
``engine.rebuild``; this module only reads the rows it needs.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from games import engine
from games.engine.cards import parse_card
from games.models import Match, Move, Round


def state_from_log(match: Match) -> engine.GameState | None:
    """The state ``match``'s decks and move log replay to; None before its first deal.

    Raises ``engine.ReplayRefused`` (or ValueError for a bad deck) when the log does not
    replay, which only a damaged log can cause: every logged move was accepted once."""
    return state_from_rows(
        ruleset=match.ruleset,
        dealer=match.first_dealer,
        target=match.target,
        rounds=_round_rows(match),
        moves=_move_rows(match),
    )


def logged_rounds(
    match: Match,
) -> list[tuple[list[engine.Card], Iterator[tuple[int, engine.Move]]]]:
    """``match``'s rounds as the engine replays them: each deck with its (seat, move) in log
    order, parsed lazily in the match's ruleset (what ``state_from_log`` replays, for a
    reader that goes through the moves itself: the post-game analysis)."""
    return rounds_from_rows(match.ruleset, _round_rows(match), _move_rows(match))


def _round_rows(match: Match) -> list[tuple[int, Sequence[str]]]:
    return list(Round.objects.filter(match=match).order_by("number").values_list("number", "deck"))


def _move_rows(match: Match) -> Iterable[tuple[int, int, dict[str, Any]]]:
    return (
        Move.objects.filter(match=match)
        .order_by("seq")
        .values_list("round_number", "seat", "payload")
    )


def state_from_rows(
    *,
    ruleset: str,
    dealer: int,
    target: int,
    rounds: Sequence[tuple[int, Sequence[str]]],
    moves: Iterable[tuple[int, int, dict[str, Any]]],
) -> engine.GameState | None:
    """``state_from_log`` over plain values: (number, deck names) per round in order and
    (round number, seat, payload) per move in log order. The snapshot migration uses it with
    its historical models, which the queries above cannot serve."""
    if not rounds:
        return None
    return engine.rebuild(
        engine.get_ruleset(ruleset),
        rounds_from_rows(ruleset, rounds, moves),
        dealer=dealer,
        target=target,
    )


def rounds_from_rows(
    ruleset: str,
    rounds: Sequence[tuple[int, Sequence[str]]],
    moves: Iterable[tuple[int, int, dict[str, Any]]],
) -> list[tuple[list[engine.Card], Iterator[tuple[int, engine.Move]]]]:
    """Each round's deck and its moves, from the rows ``state_from_rows`` takes."""
    by_round: dict[int, list[tuple[int, dict[str, Any]]]] = defaultdict(list)
    for number, seat, payload in moves:
        by_round[number].append((seat, payload))
    rules = engine.get_ruleset(ruleset)
    return [
        ([parse_card(c) for c in deck], _actions(by_round[number], rules))
        for number, deck in rounds
    ]


def _actions(
    logged: list[tuple[int, dict[str, Any]]], rules: engine.Ruleset
) -> Iterator[tuple[int, engine.Move]]:
    # Parsed as replayed, so a damaged payload is reported at its own index in the round; in
    # the match's ruleset (`sawa` and a Double's `locked` exist in `saudi` only).
    for seat, payload in logged:
        yield seat, engine.move_from_dict(payload, rules)
