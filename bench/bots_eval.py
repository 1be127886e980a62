"""Duplicate evaluation of two bot levels.

    python -m bench.bots_eval --a normal --b easy --rounds 1000 --matches 100 --ruleset saudi

Rounds: each deal is played twice from 0-0, bidding included, with the two levels swapping
seats; the margin of a deal is the mean of (A's round points - B's round points) over its two
plays, so the luck of the cards cancels. A deal whose bidding ends in a redeal (R19) goes on
to the next deck of the same seeded sequence, identically in both plays. Matches: full
matches to 152, also in swapped pairs, for A's win rate. Work is spread over processes.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from multiprocessing import Pool
from multiprocessing.pool import Pool as PoolType
from typing import TypeVar

from games.engine import (
    GAMERULES,
    RULESETS,
    Phase,
    apply,
    get_ruleset,
    new_match,
    observation,
    start_round,
    to_act,
)
from games.engine.bots import BOT_LEVELS, NormalConfig, choose_move
from games.engine.state import GameState, RoundStatus


@dataclass(frozen=True)
class Setup:
    a: str
    b: str
    normal: NormalConfig
    seed: int
    ruleset: str = GAMERULES.name


def _deck(rng: random.Random) -> list[int]:
    deck = list(range(32))
    rng.shuffle(deck)
    return deck


def _play_until(
    state: GameState, levels: tuple[str, str], setup: Setup, key: int, one_round: bool
) -> GameState:
    """Play with team 0 = levels[0], team 1 = levels[1] until one round is complete (or the
    match ends). Decks and bot randomness depend only on ``key``, never on who sits where."""
    deck_rng = random.Random(key)
    bot_rngs = [random.Random(key * 10 + s) for s in range(4)]
    while state.phase is not Phase.FINISHED:
        if state.phase is Phase.DEAL:
            if one_round and state.history and state.history[-1].status is RoundStatus.COMPLETE:
                break
            state = start_round(state, _deck(deck_rng))
            continue
        seat = to_act(state)
        assert seat is not None
        move = choose_move(
            levels[seat % 2],
            observation(state, seat),
            bot_rngs[seat],
            normal_config=setup.normal,
            ruleset=state.ruleset,
        )
        state = apply(state, seat, move)
    return state


def duplicate_round(args: tuple[Setup, int]) -> float:
    """A's mean margin over the two plays of deal ``index``."""
    setup, index = args
    key = setup.seed * 1_000_003 + index
    total = 0
    for a_team in (0, 1):
        levels = (setup.a, setup.b) if a_team == 0 else (setup.b, setup.a)
        state = _play_until(
            new_match(get_ruleset(setup.ruleset), dealer=index % 4), levels, setup, key, True
        )
        points = state.history[-1].result.points
        total += points[a_team] - points[1 - a_team]
    return total / 2


def duplicate_match(args: tuple[Setup, int]) -> tuple[int, int]:
    """(A's wins, matches) for the two plays of match ``index``."""
    setup, index = args
    key = setup.seed * 1_000_003 + 500_000 + index
    wins = 0
    for a_team in (0, 1):
        levels = (setup.a, setup.b) if a_team == 0 else (setup.b, setup.a)
        state = _play_until(
            new_match(get_ruleset(setup.ruleset), dealer=index % 4), levels, setup, key, False
        )
        wins += state.winner == a_team
    return wins, 2


def mean_ci(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its normal 95% confidence interval."""
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return mean, 1.96 * math.sqrt(var / n)


_Job = TypeVar("_Job")
_Result = TypeVar("_Result")


def _run(pool: PoolType, fn: Callable[[_Job], _Result], jobs: Iterable[_Job]) -> list[_Result]:
    return list(pool.imap_unordered(fn, jobs, chunksize=4))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", choices=BOT_LEVELS, default="normal")
    parser.add_argument("--b", choices=BOT_LEVELS, default="easy")
    parser.add_argument("--rounds", type=int, default=1000, help="duplicate deals")
    parser.add_argument("--matches", type=int, default=100, help="full matches (even)")
    parser.add_argument("--samples", type=int, default=16, help="normal bot deals per card")
    parser.add_argument(
        "--bid-samples", type=int, default=NormalConfig().bid_samples, help="0: easy bidding"
    )
    parser.add_argument("--ruleset", choices=sorted(RULESETS), default=GAMERULES.name)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    ns = parser.parse_args(argv)
    setup = Setup(
        a=ns.a,
        b=ns.b,
        normal=NormalConfig(samples=ns.samples, bid_samples=ns.bid_samples),
        seed=ns.seed,
        ruleset=ns.ruleset,
    )
    print(
        f"{ns.ruleset}: A={ns.a} vs B={ns.b}; "
        f"{ns.rounds} duplicate deals ({2 * ns.rounds} rounds), "
        f"{ns.matches} matches; normal samples/card={ns.samples}, "
        f"deals/bid option={ns.bid_samples}; seed={ns.seed}"
    )
    start = time.perf_counter()
    with Pool(ns.workers) as pool:
        margins = _run(pool, duplicate_round, ((setup, i) for i in range(ns.rounds)))
        results = _run(pool, duplicate_match, ((setup, i) for i in range(ns.matches // 2)))
    mean, half = mean_ci(margins)
    wins = sum(w for w, _ in results)
    played = sum(n for _, n in results)
    print(f"{'metric':<32}{'value':>12}{'95% CI':>22}")
    interval = f"[{mean - half:+.2f}, {mean + half:+.2f}]"
    print(f"{'A-B margin per round (points)':<32}{mean:>12.2f}   {interval}")
    if played:
        rate = wins / played
        # Matches come in swapped pairs; treat them as independent for a simple interval.
        half_rate = 1.96 * math.sqrt(rate * (1 - rate) / played)
        print(
            f"{'A match win rate':<32}{rate:>12.3f}   "
            f"[{rate - half_rate:.3f}, {rate + half_rate:.3f}]  ({wins}/{played})"
        )
    print(f"elapsed {time.perf_counter() - start:.0f}s with {ns.workers} workers")


if __name__ == "__main__":
    main()
