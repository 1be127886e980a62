"""Decision latency of the normal bot with its default (wall-clock budget) configuration.

    python -m bench.bots_latency --decisions 400

Positions come from seeded games of four easy bots; at each card decision with more than
one legal card, and at each bidding decision, the normal bot decides too and is timed.
Prints p50/p95/max per decision.
"""

from __future__ import annotations

import argparse
import random
import time

from games.engine import Phase, Play, apply, new_match, observation, start_round, to_act
from games.engine.bots import NormalConfig, choose_move


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="normal bot decision latency")
    parser.add_argument("--decisions", type=int, default=400)
    parser.add_argument("--budget", type=float, default=NormalConfig().budget)
    parser.add_argument("--seed", type=int, default=1)
    ns = parser.parse_args(argv)
    config = NormalConfig(budget=ns.budget)
    rng = random.Random(ns.seed)
    times: list[float] = []  # card decisions
    bids: list[float] = []  # bidding decisions (simulated contracts)
    state = new_match(dealer=0, target=10_000)
    while len(times) < ns.decisions:
        if state.phase is Phase.DEAL:
            deck = list(range(32))
            rng.shuffle(deck)
            state = start_round(state, deck)
            continue
        seat = to_act(state)
        assert seat is not None
        obs = observation(state, seat)
        plays = [m for m in obs.legal_moves if isinstance(m, Play)]
        if (len(plays) > 1 or state.phase is Phase.BIDDING) and not obs.projects_suggested:
            start = time.perf_counter()
            choose_move("normal", obs, random.Random(len(times)), normal_config=config)
            elapsed = time.perf_counter() - start
            (times if plays else bids).append(elapsed)
        state = apply(state, seat, choose_move("easy", obs, rng))
    print(f"normal bot, card budget {ns.budget * 1000:.0f} ms, one core")
    for name, values in (("card decisions", times), ("bid decisions", bids)):
        ms = [t * 1000 for t in values]
        print(
            f"{name:<15} n={len(ms):<5} p50 {percentile(ms, 0.5):6.1f} ms  "
            f"p95 {percentile(ms, 0.95):6.1f} ms  max {max(ms):6.1f} ms"
        )


if __name__ == "__main__":
    main()
