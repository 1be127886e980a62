"""Duplicate evaluation of two bot levels, match win rates, and how each level's bidding
compares with people's.

    python -m bench.bots_eval --a hard --b normal --rounds 2000 --matches 100
    python -m bench.bots_eval --rates easy,normal,hard --rate-rounds 500

Rounds (duplicate): each deal is played twice from 0-0, bidding included, with the two levels
swapping seats; the margin of a deal is the mean of (A's round points - B's round points) over
its two plays, so the luck of the cards cancels. Both plays of a deal use the same sequence of
decks and dealers whatever the bidding does: a deal starts on its first deck, and while both
plays pass it out (R19) both go on to the next deck of the sequence with the next dealer. When
only one play passes a deck out, that play scores 0-0 for the deal (as a passed-out board does
at one table of a duplicate bridge match) and the other play's round stands; both plays still
saw exactly the same decks, so the pairing always holds. The share of such deals is printed.

Matches: full matches to 152 in swapped pairs on the same deck sequence, for A's win rate.

Rates: self-play of four bots of one level, with the rates of redeals, failed Sun and Hokum
contracts, kaboots and doubled rounds, next to people's, from 1,095 rounds logged on
Kammelna (rules.md, source S-KAM).

A variant of the hard bot plays against the hard bot with ``--a hard --b hard`` and a setting
for B alone (``--b-hard-pass-margin``, against A's ``--hard-pass-margin``).

Bots decide on a time budget (``--normal-budget``, ``--hard-budget``, in seconds) or on a fixed
number of deals (``--normal-samples``, ``--hard-samples``: reproducible); work is spread over
processes, so the budgets are kept on a loaded machine too (every bot thinks under the same
load). Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from multiprocessing import Pool
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
from games.engine.bidding import Mode
from games.engine.bots import BOT_LEVELS, HardConfig, NormalConfig, choose_move
from games.engine.moves import Move
from games.engine.state import GameState, RoundLog, RoundStatus

# People's rates on Kammelna (rules.md source S-KAM: 1,095 logged rounds). The doubling rate
# is not in that summary.
PEOPLE = {"redeal": 0.31, "failed_sun": 0.285, "failed_hokum": 0.159, "kaboot": 0.11}


@dataclass(frozen=True)
class Side:
    """A level as it plays for one side: its hard bots' settings may differ from the other's."""

    level: str
    hard: HardConfig


@dataclass(frozen=True)
class Setup:
    a: str
    b: str
    normal: NormalConfig
    hard: HardConfig
    seed: int
    ruleset: str = GAMERULES.name
    # B's hard settings when they differ from A's (a variant of hard against hard).
    b_hard: HardConfig | None = None

    @property
    def sides(self) -> tuple[Side, Side]:
        return Side(self.a, self.hard), Side(self.b, self.b_hard or self.hard)


def _deck(rng: random.Random) -> list[int]:
    deck = list(range(32))
    rng.shuffle(deck)
    return deck


def _move(setup: Setup, side: Side, state: GameState, seat: int, rng: random.Random) -> Move:
    return choose_move(
        side.level,
        observation(state, seat),
        rng,
        normal_config=setup.normal,
        hard_config=side.hard,
        ruleset=state.ruleset,
    )


def _play_round(
    state: GameState,
    deck: list[int],
    sides: tuple[Side, Side],
    setup: Setup,
    rngs: list[random.Random],
) -> GameState:
    """Deal ``deck`` and play that one round (team 0 = sides[0], team 1 = sides[1])."""
    state = start_round(state, deck)
    while state.phase not in (Phase.DEAL, Phase.FINISHED):
        seat = to_act(state)
        assert seat is not None
        state = apply(state, seat, _move(setup, sides[seat % 2], state, seat, rngs[seat]))
    return state


@dataclass
class DealResult:
    margin: float  # A - B, mean over the two plays
    decks: int  # decks dealt before the deal was decided (passed-out decks included)
    mixed: bool  # one play passed the last deck out and the other played it
    logs: list[RoundLog] = field(default_factory=list)  # the rounds played (both plays)


def duplicate_round(args: tuple[Setup, int]) -> DealResult:
    """Deal ``index`` played in both seatings on the same deck sequence."""
    setup, index = args
    key = setup.seed * 1_000_003 + index
    deck_rng = random.Random(key)
    ruleset = get_ruleset(setup.ruleset)
    states = [new_match(ruleset, dealer=index % 4), new_match(ruleset, dealer=index % 4)]
    # The bots' randomness depends on the deal and the seat, never on who sits where.
    rngs = [[random.Random(key * 10 + s) for s in range(4)] for _ in range(2)]
    a, b = setup.sides
    seatings = ((a, b), (b, a))  # A on team 0, then A on team 1
    decks = 0
    while True:
        deck = _deck(deck_rng)
        decks += 1
        states = [_play_round(states[i], deck, seatings[i], setup, rngs[i]) for i in (0, 1)]
        logs = [s.history[-1] for s in states]
        passed = [log.status is RoundStatus.REDEAL for log in logs]
        if all(passed) and decks < 20:
            continue  # both passed this deck out: both go on to the next one
        margins = []
        for i, log in enumerate(logs):
            a_team = i  # play 0 has A on team 0, play 1 on team 1
            points = log.result.points
            margins.append(points[a_team] - points[1 - a_team])
        played = [log for log in logs if log.status is RoundStatus.COMPLETE]
        return DealResult(sum(margins) / 2, decks, passed[0] != passed[1], played)


def duplicate_match(args: tuple[Setup, int]) -> tuple[int, int]:
    """(A's wins, matches) for the two plays of match ``index`` on one deck sequence."""
    setup, index = args
    key = setup.seed * 1_000_003 + 500_000 + index
    wins = 0
    a, b = setup.sides
    for a_team in (0, 1):
        sides = (a, b) if a_team == 0 else (b, a)
        deck_rng = random.Random(key)
        rngs = [random.Random(key * 10 + s) for s in range(4)]
        state = new_match(get_ruleset(setup.ruleset), dealer=index % 4)
        while state.phase is not Phase.FINISHED and state.round_no < 300:
            state = _play_round(state, _deck(deck_rng), sides, setup, rngs)
        wins += state.winner == a_team
    return wins, 2


@dataclass
class Rates:
    rounds: int = 0
    redeals: int = 0
    sun: int = 0
    failed_sun: int = 0
    hokum: int = 0
    failed_hokum: int = 0
    kaboots: int = 0
    doubled: int = 0

    def add(self, log: RoundLog) -> None:
        self.rounds += 1
        if log.contract is None:
            self.redeals += 1
            return
        if log.contract.mode is Mode.SUN:
            self.sun += 1
            self.failed_sun += log.result.bidder_failed
        else:
            self.hokum += 1
            self.failed_hokum += log.result.bidder_failed
        self.kaboots += log.result.kaboot is not None
        self.doubled += log.multiplier > 1 or log.gahwa

    def merge(self, other: Rates) -> None:
        for name in vars(self):
            setattr(self, name, getattr(self, name) + getattr(other, name))


def self_play(args: tuple[Setup, str, int, int]) -> Rates:
    """Rates of ``rounds`` rounds of four ``level`` bots (chunk ``index`` of the run), hard
    bots on A's settings."""
    setup, level, index, rounds = args
    side = Side(level, setup.hard)
    key = setup.seed * 1_000_003 + 900_000 + index
    deck_rng = random.Random(key)
    rngs = [random.Random(key * 10 + s) for s in range(4)]
    ruleset = get_ruleset(setup.ruleset)
    state = new_match(ruleset, dealer=index % 4, target=1_000_000)
    rates = Rates()
    while rates.rounds < rounds:
        if state.phase is Phase.FINISHED:  # a Gahwa decided the match (R24): play on anew
            state = new_match(ruleset, dealer=rates.rounds % 4, target=1_000_000)
        state = _play_round(state, _deck(deck_rng), (side, side), setup, rngs)
        rates.add(state.history[-1])
    return rates


def mean_ci(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its normal 95% confidence interval."""
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return mean, 1.96 * math.sqrt(var / n)


def _share(count: int, total: int) -> str:
    if not total:
        return "-"
    p = count / total
    half = 1.96 * math.sqrt(p * (1 - p) / total)
    return f"{p:6.1%} ±{half:4.1%}"


_Job = TypeVar("_Job")
_Result = TypeVar("_Result")


def _run(pool: object, fn: Callable[[_Job], _Result], jobs: Iterable[_Job]) -> list[_Result]:
    return list(pool.imap_unordered(fn, jobs, chunksize=1))  # type: ignore[attr-defined]


def _config(budget: float | None, samples: int | None, kind: type, **extra: float) -> object:
    if samples is not None:
        return kind(samples=samples, **extra)
    return kind(**extra) if budget is None else kind(budget=budget, **extra)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", choices=BOT_LEVELS, default="normal")
    parser.add_argument("--b", choices=BOT_LEVELS, default="easy")
    parser.add_argument("--rounds", type=int, default=1000, help="duplicate deals (0: none)")
    parser.add_argument("--matches", type=int, default=100, help="full matches (even)")
    parser.add_argument("--rates", default="", help="levels to self-play, e.g. easy,normal")
    parser.add_argument("--rate-rounds", type=int, default=500, help="rounds per level")
    parser.add_argument("--normal-budget", type=float, default=None, help="seconds per card")
    parser.add_argument("--normal-samples", type=int, default=None, help="deals per card")
    parser.add_argument("--hard-budget", type=float, default=None, help="seconds per decision")
    parser.add_argument("--hard-samples", type=int, default=None, help="deals per card")
    parser.add_argument(
        "--hard-pass-margin",
        type=float,
        default=HardConfig().pass_margin,
        help="points a hard bot's call must gain over passing",
    )
    parser.add_argument(
        "--b-hard-pass-margin",
        type=float,
        default=None,
        help="B's, where it differs (hard vs hard)",
    )
    parser.add_argument("--ruleset", choices=sorted(RULESETS), default=GAMERULES.name)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    ns = parser.parse_args(argv)
    normal = _config(ns.normal_budget, ns.normal_samples, NormalConfig)
    hard = _config(ns.hard_budget, ns.hard_samples, HardConfig, pass_margin=ns.hard_pass_margin)
    assert isinstance(normal, NormalConfig) and isinstance(hard, HardConfig)
    b_hard = None
    if ns.b_hard_pass_margin is not None:
        b_hard = replace(hard, pass_margin=ns.b_hard_pass_margin)
    setup = Setup(
        a=ns.a, b=ns.b, normal=normal, hard=hard, seed=ns.seed, ruleset=ns.ruleset, b_hard=b_hard
    )
    print(
        f"{ns.ruleset}: A={ns.a} vs B={ns.b}; {ns.rounds} duplicate deals, {ns.matches} "
        f"matches; normal {_describe(normal)}, hard {_describe(hard)}"
        + (f" (B's hard: {_describe(b_hard)})" if b_hard else "")
        + f"; seed {ns.seed}; "
        f"{ns.workers} workers"
    )
    start = time.perf_counter()
    with Pool(ns.workers) as pool:
        if ns.rounds:
            deals = _run(pool, duplicate_round, ((setup, i) for i in range(ns.rounds)))
            margins = [d.margin for d in deals]
            mean, half = mean_ci(margins)
            print(
                f"  {'A-B margin per round (points)':<34}{mean:>8.2f}   95% CI "
                f"[{mean - half:+.2f}, {mean + half:+.2f}]   ({len(deals)} deals)"
            )
            mixed = sum(d.mixed for d in deals)
            again = sum(d.decks > 1 for d in deals)
            print(
                f"  pairing: every deal played on the same decks in both seatings; "
                f"{mixed} ({mixed / len(deals):.1%}) passed out at one table only (scored 0-0 "
                f"there), {again} ({again / len(deals):.1%}) passed out at both and redealt"
            )
        if ns.matches:
            results = _run(pool, duplicate_match, ((setup, i) for i in range(ns.matches // 2)))
            wins = sum(w for w, _ in results)
            played = sum(n for _, n in results)
            rate = wins / played
            half_rate = 1.96 * math.sqrt(rate * (1 - rate) / played)
            print(
                f"  {'A match win rate':<34}{rate:>8.3f}   95% CI "
                f"[{max(0.0, rate - half_rate):.3f}, {min(1.0, rate + half_rate):.3f}]   "
                f"({wins}/{played} won)"
            )
        levels = [level for level in ns.rates.split(",") if level]
        if levels:
            chunk = 50
            print("  self-play rates (rounds of four bots of one level; ±: 95% CI)")
            print(
                f"  {'':<12}{'rounds':>7}{'redeal':>14}{'failed Sun':>14}{'failed Hokum':>14}"
                f"{'kaboot':>14}{'doubled':>14}"
            )
            print(
                f"  {'people':<12}{1095:>7}{PEOPLE['redeal']:>14.1%}{PEOPLE['failed_sun']:>14.1%}"
                f"{PEOPLE['failed_hokum']:>14.1%}{'~' + format(PEOPLE['kaboot'], '.0%'):>14}"
                f"{'n/a':>14}"
            )
            for level in levels:
                jobs = [(setup, level, i, chunk) for i in range(max(1, ns.rate_rounds // chunk))]
                total = Rates()
                for part in _run(pool, self_play, jobs):
                    total.merge(part)
                played = total.rounds - total.redeals
                print(
                    f"  {level:<12}{total.rounds:>7}{_share(total.redeals, total.rounds):>14}"
                    f"{_share(total.failed_sun, total.sun):>14}"
                    f"{_share(total.failed_hokum, total.hokum):>14}"
                    f"{_share(total.kaboots, played):>14}{_share(total.doubled, played):>14}"
                )
    print(f"  elapsed {time.perf_counter() - start:.0f} s")


def _describe(config: NormalConfig | HardConfig) -> str:
    text = (
        f"{config.samples} deals/card"
        if config.samples is not None
        else f"{config.budget:g} s budget"
    )
    if isinstance(config, HardConfig):
        text += f", pass margin {config.pass_margin:g}"
    return text


if __name__ == "__main__":
    main()
