"""Decision latency of the normal and hard bots on their time budgets.

    python -m bench.bots_latency [--decisions 300] [--hard-decisions 100]
        [--normal-budget 0.04] [--hard-budget 1.0]

Positions come from seeded games of four easy bots; at each card decision with more than
one legal card, at each bidding decision and at each doubling decision, the bot decides too
and is timed (one core). Both bots stop early once their best option is plain, so most
decisions take less than the budget. Prints p50/p95/max per kind of decision, and how many
times the budget was exceeded by more than 10%.
"""

from __future__ import annotations

import argparse
import random
import time

from games.engine import Phase, Play, apply, new_match, observation, start_round, to_act
from games.engine.bots import HardConfig, NormalConfig, choose_move


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(level: str, budget: float, decisions: int, seed: int) -> None:
    normal = NormalConfig(budget=budget)
    hard = HardConfig(budget=budget)
    rng = random.Random(seed)
    times: dict[str, list[float]] = {"card": [], "bid": [], "double": []}
    state = new_match(dealer=0, target=10_000)
    while len(times["card"]) < decisions:
        if state.phase is Phase.DEAL:
            deck = list(range(32))
            rng.shuffle(deck)
            state = start_round(state, deck)
            continue
        seat = to_act(state)
        assert seat is not None
        obs = observation(state, seat)
        plays = [m for m in obs.legal_moves if isinstance(m, Play)]
        kind = {Phase.BIDDING: "bid", Phase.DOUBLING: "double"}.get(state.phase, "card")
        if (len(plays) > 1 or kind != "card") and not obs.projects_suggested:
            start = time.perf_counter()
            choose_move(
                level,
                obs,
                random.Random(len(times[kind])),
                normal_config=normal,
                hard_config=hard,
            )
            times[kind].append(time.perf_counter() - start)
        state = apply(state, seat, choose_move("easy", obs, rng))
    print(f"{level} bot, budget {budget * 1000:.0f} ms a decision, one core")
    for kind, values in times.items():
        if not values:
            continue
        ms = [t * 1000 for t in values]
        over = sum(t > budget * 1.1 for t in values)
        print(
            f"  {kind + ' decisions':<17} n={len(ms):<5} p50 {percentile(ms, 0.5):7.1f} ms  "
            f"p95 {percentile(ms, 0.95):7.1f} ms  max {max(ms):7.1f} ms  "
            f"over budget+10%: {over}"
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="bot decision latency")
    parser.add_argument("--decisions", type=int, default=300, help="normal card decisions")
    parser.add_argument("--hard-decisions", type=int, default=100, help="hard card decisions")
    parser.add_argument("--normal-budget", type=float, default=NormalConfig().budget)
    parser.add_argument("--hard-budget", type=float, default=HardConfig().budget)
    parser.add_argument("--seed", type=int, default=1)
    ns = parser.parse_args(argv)
    measure("normal", ns.normal_budget, ns.decisions, ns.seed)
    if ns.hard_decisions:
        measure("hard", ns.hard_budget, ns.hard_decisions, ns.seed)


if __name__ == "__main__":
    main()
