"""Engine throughput: full random rounds per second and legal_moves+apply calls per second.

    python -m bench.engine [--seconds 3] [--seed 1] [--profile]

A round is the whole of it: shuffle and deal, bidding, doubling, 8 tricks and scoring, with
every move drawn uniformly from ``legal_moves`` by one seeded ``random.Random``. Redeals (all
pass twice) are counted apart, since they skip the play. Single process; wall-clock time is
only measured here, never asserted anywhere.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import time
from dataclasses import dataclass

from games.engine.selfplay import shuffled_deck
from games.engine.state import GameState, Phase, apply, legal_moves, new_match, start_round, to_act

TARGET_ROUNDS_PER_SECOND = 2000


@dataclass
class Counts:
    rounds: int = 0  # rounds played to the end of trick 8
    redeals: int = 0
    calls: int = 0  # legal_moves + apply pairs


def play_round(state: GameState, rng: random.Random, counts: Counts) -> GameState:
    """Deal and play one round at random; return the state after it (a new match if the
    round ended the old one, so the caller can keep going)."""
    if state.phase is Phase.FINISHED:
        state = new_match(state.ruleset, dealer=rng.randrange(4))
    state = start_round(state, shuffled_deck(rng))
    while state.phase not in (Phase.DEAL, Phase.FINISHED):
        moves = legal_moves(state)
        seat = to_act(state)
        assert seat is not None
        state = apply(state, seat, rng.choice(moves))
        counts.calls += 1
    if state.history[-1].tricks:
        counts.rounds += 1
    else:
        counts.redeals += 1
    return state


def run(seconds: float, seed: int) -> tuple[Counts, float]:
    rng = random.Random(seed)
    state = new_match(dealer=0)
    counts = Counts()
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        for _ in range(50):  # check the clock rarely; it is not free
            state = play_round(state, rng, counts)
        elapsed = time.perf_counter() - start
    return counts, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.engine", description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="print a cProfile summary")
    args = parser.parse_args()
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        counts, elapsed = run(args.seconds, args.seed)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(20)
    else:
        counts, elapsed = run(args.seconds, args.seed)
    rounds_per_s = counts.rounds / elapsed
    print(f"seed {args.seed}, {elapsed:.2f} s, single process")
    print(f"full rounds:          {counts.rounds:>8}  {rounds_per_s:>10,.0f} /s")
    print(f"redeals:              {counts.redeals:>8}")
    print(f"legal_moves + apply:  {counts.calls:>8}  {counts.calls / elapsed:>10,.0f} /s")
    verdict = "meets" if rounds_per_s >= TARGET_ROUNDS_PER_SECOND else "is below"
    print(f"{verdict} the aim of {TARGET_ROUNDS_PER_SECOND:,} full rounds/s")


if __name__ == "__main__":
    main()
