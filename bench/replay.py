"""Replay throughput of the command line: ``python -m games.engine replay FILE``.

    python -m bench.replay [--rounds 1500,10000] [--repeats 5]

Records are long matches of four easy bots (bidding, doubling, declarations, Baloot and
redeals as bots make them), seeded, written once to ``var/bench/`` and reused. Each record is
replayed by the command as a subprocess, its output thrown away, ``--repeats`` times; the
figures are actions per second of wall-clock time, interpreter start included (about a tenth of
a second, so short records understate the replay rate), with the median, best and worst runs.
The replay rate inside one process (no start-up, no reading or printing) is printed too.
Single process, one core. Wall-clock time is only measured here, never asserted.
"""

from __future__ import annotations

import argparse
import compileall
import gc
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from games.engine import Phase, apply, new_match, observation, start_round, to_act
from games.engine.bots import choose_move
from games.engine.record import export_match, replay
from games.engine.selfplay import shuffled_deck

ROOT = Path(__file__).resolve().parent.parent
TARGET_ACTIONS_PER_SECOND = 300_000


def record_path(rounds: int, seed: int) -> Path:
    return ROOT / "var" / "bench" / f"replay-easy-{rounds}-seed{seed}.json"


def make_record(rounds: int, seed: int) -> Path:
    """A record of ``rounds`` rounds of four easy bots (made once, then reused)."""
    path = record_path(rounds, seed)
    if path.exists():
        return path
    rng = random.Random(seed)
    state = new_match(dealer=0, target=10**9)  # a match that never ends by points
    while len(state.history) < rounds:
        if state.phase is Phase.DEAL:
            state = start_round(state, shuffled_deck(rng))
            continue
        seat = to_act(state)
        assert seat is not None
        state = apply(state, seat, choose_move("easy", observation(state, seat), rng))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(export_match(state)))
    return path


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.replay", description=__doc__)
    parser.add_argument("--rounds", default="1500,10000", help="record lengths, in rounds")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    # The command as installed runs from compiled bytecode (pip and the image compile it).
    # Where PYTHONDONTWRITEBYTECODE is set, nothing would ever be cached and every run would
    # compile the engine from source first (about 20 ms): compile it once here.
    compileall.compile_dir(ROOT / "games" / "engine", quiet=1)
    print(f"replay: python -m games.engine replay FILE, {args.repeats} runs per record")
    for rounds in (int(r) for r in args.rounds.split(",")):
        path = make_record(rounds, args.seed)
        record = json.loads(path.read_text())
        actions = sum(len(r["actions"]) for r in record["rounds"])
        rates = []
        for _ in range(args.repeats):
            start = time.perf_counter()
            done = subprocess.run(
                [sys.executable, "-m", "games.engine", "replay", str(path)],
                cwd=ROOT,
                stdout=subprocess.DEVNULL,
                check=False,
            )
            elapsed = time.perf_counter() - start
            if done.returncode != 0:
                raise SystemExit(f"replay exited with {done.returncode} on {path}")
            rates.append(actions / elapsed)
        gc.disable()  # as the command runs it (games/engine/__main__.py says why)
        start = time.perf_counter()
        replay(record)
        inside = actions / (time.perf_counter() - start)
        gc.enable()
        median = statistics.median(rates)
        verdict = "meets" if median >= TARGET_ACTIONS_PER_SECOND else "is below"
        print(
            f"{rounds:>6} rounds, {actions:>7,} actions: median {median:>9,.0f} /s   best "
            f"{max(rates):>9,.0f}   worst {min(rates):>9,.0f}   (in one process, without "
            f"start-up and output: {inside:,.0f} /s); the median {verdict} the aim of "
            f"{TARGET_ACTIONS_PER_SECOND:,}"
        )


if __name__ == "__main__":
    main()
