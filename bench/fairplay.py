"""The fair-play signals on simulated populations (issue 28, ``make bench-fairplay``): how many
honest accounts they flag, and how many matches they take to flag a pair that sees each
other's hands and the hard bot posing as a person.

Matches are played and analysed as the service analyses them (``bench/fairplay_sim.py``):
honest tables of bots of every level, tables where one pair peeks at each other's hands,
tables where one seat is the hard bot among easier ones. Each seat's valued decisions are kept
(in ``var/fairplay/``, so a second run only adds the matches it lacks). Accounts are then
made of those seats: a sequence of matches drawn from the pool of the account's kind, tested
after every match exactly as ``moderation.services.fairplay`` tests (each signal's window of
last matches, the thresholds of the settings), so the rates include the cost of testing
again and again. Drawing with replacement from a pool of a few hundred matches
makes the accounts' matches independent, which real play is too, but the rates are only as
good as the pool: the intervals are over accounts, not over the pool.

    .venv/bin/python -m bench.fairplay [--honest 200 --cheats 60 --accounts 400]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from bench.fairplay_sim import ENGINE_SAMPLES, SeatRecord, play_and_analyse
from games.engine.rulesets import RULESETS
from moderation import fairplay

LEVELS = ("easy", "normal", "hard")
STORE = Path("var/fairplay")
SEEDS = {"honest": 100_000, "peek": 200_000, "engine": 300_000}


def _settings() -> dict[str, float]:
    """The signals' settings as the service reads them (the same environment variables)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "baloot_site.settings")
    import django
    from django.conf import settings

    django.setup()
    return dict(settings.BALOOT)


def table(kind: str, seed: int) -> list[str]:
    """The seats of the match of ``seed`` in population ``kind`` (levels drawn by seed)."""
    rng = random.Random(seed)
    if kind == "honest":
        return [rng.choice(LEVELS) for _ in range(4)]
    if kind == "peek":  # seats 0 and 2 see each other's hands
        return ["peek", rng.choice(LEVELS), "peek", rng.choice(LEVELS)]
    easier = ("easy", "normal")  # the hard bot posing as a person at seat 0
    return ["engine", rng.choice(easier), rng.choice(easier), rng.choice(easier)]


def _simulate(job: tuple[str, int, int, str]) -> tuple[str, int, list[SeatRecord]]:
    kind, seed, engine_samples, ruleset = job
    seats = table(kind, seed)
    return kind, seed, play_and_analyse(seed, seats, ruleset, engine_samples=engine_samples)


def pool(
    kind: str, count: int, workers: int, engine_samples: int, ruleset: str = "gamerules"
) -> list[list[SeatRecord]]:
    """``count`` matches of population ``kind`` (each its four seats), played as needed."""
    STORE.mkdir(parents=True, exist_ok=True)
    name = f"engine-{engine_samples}" if kind == "engine" else kind
    if ruleset != "gamerules":  # gamerules keeps the stores' first names
        name = f"{ruleset}-{name}"
    path = STORE / f"{name}.jsonl"
    have: dict[int, list[SeatRecord]] = {}
    if path.exists():
        for line in path.read_text().splitlines():
            row = json.loads(line)
            seats = [
                SeatRecord(row["match"], s["seat"], s["kind"], tuple(map(tuple, s["d"])))
                for s in row["seats"]
            ]
            have[row["match"]] = seats
    wanted = [SEEDS[kind] + i for i in range(count)]
    missing = [(kind, s, engine_samples, ruleset) for s in wanted if s not in have]
    if missing:
        started = time.perf_counter()
        with ProcessPoolExecutor(workers) as executor, path.open("a") as out:
            for _, seed, seats in executor.map(_simulate, missing):
                have[seed] = seats
                row = {
                    "match": seed,
                    "seats": [{"seat": r.seat, "kind": r.kind, "d": r.decisions} for r in seats],
                }
                out.write(json.dumps(row) + "\n")
                out.flush()
        took = time.perf_counter() - started
        print(f"  played and analysed {len(missing)} {kind} matches in {took:.0f} s")
    return [have[s] for s in wanted]


# One match of an account, as the tests count it: (hits, trials).
Counts = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Signal:
    """One signal as the service runs it: its counting, window and thresholds."""

    name: str
    count: Callable[[Sequence[tuple[float, float | None, int | None]]], Counts]
    window: int
    baseline: float
    alpha: float
    min_trials: int

    def first_flag(self, account: Sequence[Counts]) -> int | None:
        """After which match (1-based) the account is first flagged, tested after every
        match over its last ``window`` matches as the service does; None if never."""
        for played in range(1, len(account) + 1):
            recent = account[max(0, played - self.window) : played]
            hits, trials = sum(h for h, _ in recent), sum(t for _, t in recent)
            # Not flagged whatever the p-value (ShareTest.flagged): skip computing it.
            if trials < self.min_trials or hits <= self.baseline * trials:
                continue
            test = fairplay.share_test(
                self.name,
                hits,
                trials,
                baseline=self.baseline,
                alpha=self.alpha,
                min_trials=self.min_trials,
            )
            if test.flagged:
                return played
        return None


def signals(conf: dict[str, float]) -> tuple[Signal, Signal]:
    """The two signals with the service's own thresholds (``fairplay.thresholds``)."""

    def shared(decisions: Sequence[tuple[float, float | None, int | None]]) -> Counts:
        return fairplay.shared_hands_counts((loss, partner) for loss, partner, _ in decisions)

    def engine(decisions: Sequence[tuple[float, float | None, int | None]]) -> Counts:
        return fairplay.engine_help_counts((loss, trick) for loss, _, trick in decisions)

    built = []
    for name, count in ((fairplay.SHARED_HANDS, shared), (fairplay.ENGINE_HELP, engine)):
        limits = fairplay.thresholds(name, conf)
        built.append(
            Signal(name, count, limits.window, limits.baseline, limits.alpha, limits.min_trials)
        )
    return built[0], built[1]


def wilson(hits: int, total: int) -> tuple[float, float]:
    if total == 0:
        return 0.0, 1.0
    z, p = 1.96, hits / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return max(0.0, centre - half), min(1.0, centre + half)


def _pct(hits: int, total: int) -> str:
    low, high = wilson(hits, total)
    return f"{100 * hits / total:.2f}% ({100 * low:.2f} .. {100 * high:.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--honest", type=int, default=200, help="honest matches simulated")
    parser.add_argument("--cheats", type=int, default=60, help="matches of each cheating kind")
    parser.add_argument("--accounts", type=int, default=400, help="accounts of each kind")
    parser.add_argument(
        "--matches", type=int, default=20, help="matches each pair plays (shared hands)"
    )
    parser.add_argument(
        "--engine-matches", type=int, default=100, help="matches each account plays (engine)"
    )
    parser.add_argument(
        "--history", type=int, default=100, help="matches each honest account plays"
    )
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--engine-samples", type=int, default=ENGINE_SAMPLES, help="the posing hard bot's deals"
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--ruleset", choices=sorted(RULESETS), default="gamerules")
    args = parser.parse_args()
    conf = _settings()
    rng = random.Random(args.seed)
    shared, engine = signals(conf)

    print(f"fair-play signals on simulated populations ({args.ruleset})")
    honest = pool("honest", args.honest, args.workers, args.engine_samples, args.ruleset)
    peek = pool("peek", args.cheats, args.workers, args.engine_samples, args.ruleset)
    hard = pool("engine", args.cheats, args.workers, args.engine_samples, args.ruleset)
    # Per level, each honest seat's decisions in one match.
    by_level = {
        level: [r.decisions for m in honest for r in m if r.kind == level] for level in LEVELS
    }
    # The cheats' seats: the peeking pair's two seats of a match together, the posing bot's.
    pairs = [tuple(d for r in m if r.kind == "peek" for d in r.decisions) for m in peek]
    posing = [r.decisions for m in hard for r in m if r.kind == "engine"]

    print(
        f"thresholds: alpha {shared.alpha}; shared hands: window {shared.window} matches, "
        f"baseline {shared.baseline}, >= {shared.min_trials} trials; engine help: window "
        f"{engine.window} matches, baseline {engine.baseline}, >= {engine.min_trials} trials"
    )
    print(
        f"pools: {len(honest)} honest matches, {len(peek)} with a peeking pair, {len(hard)} "
        f"with the hard bot on {args.engine_samples} deals a card posing as a person"
    )

    print("\nshare per decision over each pool (what the baselines are set above)")
    for name, seats in (*by_level.items(), ("peeking pair", pairs), ("posing bot", posing)):
        s_hits, s_trials = map(sum, zip(*(shared.count(d) for d in seats), strict=True))
        e_hits, e_trials = map(sum, zip(*(engine.count(d) for d in seats), strict=True))
        print(
            f"  {name:13} shared hands {s_hits / s_trials:.3f} of {s_trials:6}   "
            f"engine help {e_hits / e_trials:.3f} of {e_trials:6}"
        )

    print(f"\nhonest accounts flagged over {args.history} matches (95% CI over accounts)")
    # An honest pair's match: its two seats of one match (partners' play is not independent).
    pair_counts: dict[tuple[str, str], list[Counts]] = {}
    for match in honest:
        for first in (0, 1):
            a, b = match[first], match[first + 2]
            key = (min(a.kind, b.kind, key=LEVELS.index), max(a.kind, b.kind, key=LEVELS.index))
            ca, cb = shared.count(a.decisions), shared.count(b.decisions)
            pair_counts.setdefault(key, []).append((ca[0] + cb[0], ca[1] + cb[1]))
    engine_counted = {level: [engine.count(d) for d in by_level[level]] for level in LEVELS}
    flagged_total = accounts_total = 0
    for key in sorted(pair_counts, key=lambda k: (LEVELS.index(k[0]), LEVELS.index(k[1]))):
        pool_of_pair = pair_counts[key]
        hits = sum(
            shared.first_flag([rng.choice(pool_of_pair) for _ in range(args.history)]) is not None
            for _ in range(args.accounts)
        )
        flagged_total += hits
        accounts_total += args.accounts
        print(
            f"  shared hands, pair {key[0]}+{key[1]} ({len(pool_of_pair)} pairs in the pool): "
            f"{_pct(hits, args.accounts)}"
        )
    for level in LEVELS:
        hits = sum(
            engine.first_flag(
                [rng.choice(engine_counted[level]) for _ in range(args.engine_matches)]
            )
            is not None
            for _ in range(args.accounts)
        )
        note = "  (the engine itself)" if level == "hard" else ""
        if level != "hard":
            flagged_total += hits
            accounts_total += args.accounts
        print(f"  engine help, {level}: {_pct(hits, args.accounts)}{note}")
    print(
        f"  every honest account above (the hard bot's own engine test aside): "
        f"{_pct(flagged_total, accounts_total)}"
    )

    print("\nmatches until flagged (median with its 95% CI; share flagged within the matches)")
    for name, seats, signal, length in (
        ("pair seeing each other's hands", pairs, shared, args.matches),
        (
            f"hard bot posing as a person ({args.engine_samples} deals a card)",
            posing,
            engine,
            args.engine_matches,
        ),
    ):
        counts = [signal.count(d) for d in seats]
        found = [
            signal.first_flag([rng.choice(counts) for _ in range(length)])
            for _ in range(args.accounts)
        ]
        _report_until(name, found, length, rng)
        if length > 20:
            within = sum(f is not None and f <= 20 for f in found)
            print(f"    flagged within 20 matches: {_pct(within, len(found))}")


def _report_until(name: str, found: Sequence[int | None], limit: int, rng: random.Random) -> None:
    caught = [f for f in found if f is not None]
    # A never-flagged account counts as later than any: the median is over all accounts.
    ranked = sorted(f if f is not None else limit + 1 for f in found)
    median = statistics.median(ranked)
    medians = sorted(statistics.median(rng.choice(ranked) for _ in ranked) for _ in range(200))

    def shown(m: float) -> str:
        return f"{m:g}" if m <= limit else f"> {limit}"

    print(
        f"  {name}: median {shown(median)} matches ({shown(medians[5])} .. "
        f"{shown(medians[194])}); flagged within {limit}: {_pct(len(caught), len(found))}"
    )


if __name__ == "__main__":
    main()
