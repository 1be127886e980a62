"""Engine throughput: full random rounds per second and legal_moves+apply calls per second.

    python -m bench.engine [--seconds 2] [--repeats 5] [--seed 1] [--profile]

A round is the whole of it: shuffle and deal, bidding, doubling, 8 tricks and scoring, with
every move drawn uniformly from ``legal_moves``, computed at every step, by one seeded
``random.Random``, through the engine's public, immutable API (``apply`` returns a new state).
The draws use ``Random.random()`` directly (a Fisher-Yates shuffle and ``int(random() * n)``
picks, uniform to within 2**-53): ``Random.choice`` and ``Random.shuffle`` cost about as much
per call as an ``apply``, and this measures the engine, not the random module.
Redeals (all pass twice) are counted apart, since they skip the play. Single process, so one
core. The figure is noisy on a shared machine, so the run is repeated and the median, the best
and the worst are printed; wall-clock time is only measured here, never asserted anywhere.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import statistics
import time
from dataclasses import dataclass

from games.engine.rules import apply, legal_moves, new_match, start_round, to_act
from games.engine.state import GameState, Phase

TARGET_ROUNDS_PER_SECOND = 10_000

_DEAL, _FINISHED = Phase.DEAL, Phase.FINISHED


@dataclass
class Counts:
    rounds: int = 0  # rounds played to the end of trick 8
    redeals: int = 0
    calls: int = 0  # legal_moves + apply pairs


def _shuffled(rng: random.Random) -> list[int]:
    """A uniformly shuffled deck (Fisher-Yates)."""
    deck = list(range(32))
    uniform = rng.random
    for i in range(31, 0, -1):
        j = int(uniform() * (i + 1))
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def play_round(state: GameState, rng: random.Random, counts: Counts) -> GameState:
    """Deal and play one round at random; return the state after it (a new match if the
    round ended the old one, so the caller can keep going)."""
    if state.phase is _FINISHED:
        state = new_match(state.ruleset, dealer=rng.randrange(4))
    state = start_round(state, _shuffled(rng))
    uniform = rng.random
    calls = 0
    while True:
        seat = to_act(state)
        if seat is None:  # the round is over
            break
        moves = legal_moves(state)
        state = apply(state, seat, moves[int(uniform() * len(moves))])
        calls += 1
    counts.calls += calls
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
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one run")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="print a cProfile summary")
    args = parser.parse_args()
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        run(args.seconds, args.seed)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(20)
        return
    rates: list[float] = []
    call_rates: list[float] = []
    total = Counts()
    for repeat in range(args.repeats):
        counts, elapsed = run(args.seconds, args.seed + repeat)
        rates.append(counts.rounds / elapsed)
        call_rates.append(counts.calls / elapsed)
        total.rounds += counts.rounds
        total.redeals += counts.redeals
    median = statistics.median(rates)
    print(
        f"engine: random rounds, single process, {args.repeats} runs of {args.seconds:.0f} s "
        f"(seeds {args.seed}-{args.seed + args.repeats - 1})"
    )
    print(
        f"full rounds/s:          median {median:>9,.0f}   best {max(rates):>9,.0f}   "
        f"worst {min(rates):>9,.0f}   ({total.rounds:,} rounds, {total.redeals:,} redeals)"
    )
    print(
        f"legal_moves + apply/s:  median {statistics.median(call_rates):>9,.0f}   "
        f"best {max(call_rates):>9,.0f}   worst {min(call_rates):>9,.0f}"
    )
    verdict = "meets" if median >= TARGET_ROUNDS_PER_SECOND else "is below"
    print(f"the median {verdict} the aim of {TARGET_ROUNDS_PER_SECOND:,} full rounds/s")


if __name__ == "__main__":
    main()
