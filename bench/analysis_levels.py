"""The post-game analysis ranks the bot levels (issue 28): self-play matches of each level on the
same decks (each level plays the match of a seed, from its first deal), every decision analysed
as a finished match is (``games.engine.analysis``), and per level the mean loss per decision
with its 95% confidence interval, the accuracy, and the cost of the analysis.

The interval is over rounds (each round's mean loss per decision is one observation): the
decisions of one round are not independent of each other, the deals of two rounds are.

    .venv/bin/python -m bench.analysis_levels --matches 20 [--ruleset gamerules]
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import time

from games.engine import analysis, get_ruleset
from games.engine.bots import BOT_LEVELS, HardConfig, NormalConfig, choose_move
from games.engine.selfplay import play_match
from moderation import fairplay

# The hard bot's self-play on a fixed number of deals (deterministic, and fast enough for a
# bench); the analysis uses its own (``analysis.play_samples_for``).
HARD_PLAY = HardConfig(samples=16, bid_samples=16, double_samples=16)
# The normal bot's too: its production budget is wall-clock, which a loaded machine changes.
NORMAL_PLAY = NormalConfig(samples=32)


def level_losses(
    level: str,
    seeds: list[int],
    ruleset_name: str,
    *,
    target: int | None = None,
    hard_play: HardConfig = HARD_PLAY,
    play_samples: int | None = None,
    bid_samples: int = analysis.BID_SAMPLES,
) -> tuple[list[float], dict[str, float]]:
    """Each round's mean loss per decision when ``level`` plays every seat of the matches of
    ``seeds``, and the totals (decisions, accuracy, analysis milliseconds per decision)."""
    ruleset = get_ruleset(ruleset_name)

    # Called by selfplay with observation(state, seat) only.
    bot = functools.partial(
        choose_move, level, normal_config=NORMAL_PLAY, hard_config=hard_play, ruleset=ruleset
    )

    per_round: list[float] = []
    decisions = 0
    accuracy = 0.0
    analysis_seconds = 0.0
    late_best = late_cards = 0
    for seed in seeds:
        state = play_match(random.Random(seed), [bot] * 4, ruleset=ruleset, target=target)
        rounds = [(log.deck, log.actions) for log in state.history]
        started = time.perf_counter()
        found = analysis.analyse_match(
            ruleset,
            rounds,
            seed=f"bench/{seed}",
            dealer=state.history[0].dealer,
            target=target,
            play_samples=play_samples,
            bid_samples=bid_samples,
            partner_seats=(),  # the ranking reads the fair values only
        )
        analysis_seconds += time.perf_counter() - started
        for number in range(1, len(rounds) + 1):
            losses = [d.loss for d in found if d.round == number]
            if losses:
                per_round.append(statistics.fmean(losses))
        decisions += len(found)
        accuracy += sum(d.accuracy for d in found)
        # What the engine-help signal reads (moderation.fairplay): how honest play at this
        # level sits against its baseline in this ruleset.
        best, cards = fairplay.engine_help_counts((d.loss, d.trick) for d in found)
        late_best += best
        late_cards += cards
    return per_round, {
        "decisions": decisions,
        "accuracy": 100 * accuracy / decisions,
        "ms_per_decision": 1000 * analysis_seconds / decisions,
        "late_best": late_best / late_cards if late_cards else float("nan"),
    }


def interval(values: list[float]) -> tuple[float, float, float]:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / len(values) ** 0.5
    return mean, mean - half, mean + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--ruleset", default="gamerules")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--hard-samples", type=int, default=16, help="deals a card for the hard bot's play"
    )
    parser.add_argument("--levels", default=",".join(BOT_LEVELS), help="comma-separated")
    parser.add_argument(
        "--analysis-samples",
        type=int,
        default=None,
        help="deals a card for the analysis (default: the ruleset's, analysis.play_samples_for)",
    )
    args = parser.parse_args()
    hard_play = HardConfig(
        samples=args.hard_samples, bid_samples=args.hard_samples, double_samples=args.hard_samples
    )
    seeds = [args.seed + i for i in range(args.matches)]
    print(f"analysis of self-play, {args.ruleset}, {args.matches} matches per level (same decks)")
    print("mean loss per decision, 95% CI over rounds; accuracy and analysis cost per decision")
    analysed_on = args.analysis_samples or analysis.play_samples_for(get_ruleset(args.ruleset))
    print(f"the hard bot plays on {args.hard_samples} deals a card; analysed on {analysed_on}")
    print("late best: the share of cards from trick 5 that were the analyst's best (engine help)")
    header = ("level", "decisions", "mean loss", "95% CI", "accuracy", "ms/dec", "late best")
    print("{:8} {:>9} {:>9} {:>16} {:>8} {:>7} {:>9}".format(*header))
    for level in args.levels.split(","):
        per_round, facts = level_losses(
            level, seeds, args.ruleset, hard_play=hard_play, play_samples=args.analysis_samples
        )
        mean, low, high = interval(per_round)
        print(
            f"{level:8} {facts['decisions']:>9} {mean:>9.2f} {f'{low:.2f} .. {high:.2f}':>16} "
            f"{facts['accuracy']:>7.1f}% {facts['ms_per_decision']:>7.1f} "
            f"{facts['late_best']:>9.3f}"
        )


if __name__ == "__main__":
    main()
