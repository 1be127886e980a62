"""The fair-play signals' statistics, over the decisions the post-game analysis valued
(``games.engine.analysis``). Pure: no Django, so the simulation of populations
(``bench/fairplay.py``) tests the very functions the service (``moderation.services.fairplay``)
flags with.

Both signals are one-sided binomial tests of a share against the highest share honest play
shows (measured on bots of every level playing fair, ``make bench-fairplay``; the baselines
and the significance level are settings):

* **Partners who share hands.** Each card decision is valued twice: by the search from the
  seat's own observation (``loss``), and by the same search with the partner's hand pinned
  (``partner_loss``). Where the two disagree about the choice, one says it was (as good as)
  the best and the other says it cost more than ``tolerance`` points; a *discordant* decision
  fits the partner-knowing evaluation only, or the fair one only. An honest pair cannot aim
  at the hand it does not see, so the share of its discordant decisions that fit the knowing
  evaluation stays near the honest baseline; a pair that sees each other's hands drifts
  above it. The test: that share over the pair's decisions (both seats) against the baseline.
* **Engine help.** The share of a player's card decisions from the fifth trick on (where the
  analyst's search is exact over its deals, ``bots.hard``'s endgame) that were the analyst's
  best, against the honest baseline. The hard bot (the engine people would consult) plays by
  the analyst's search and sits above it; no honest level below it does.

Decisions of one round are not independent (a player who knows the hand is right again and
again), which makes a binomial p-value look more certain than it is: hence a strict
significance level, and the bench that measures the honest flag rate as the service runs the
tests (again after every match) rather than trusting the p-value.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

# The signals' names (the moderation flag kinds' values).
SHARED_HANDS = "shared_hands"
ENGINE_HELP = "engine_help"
# A choice within this many points of the best is "the best" (the search's own noise on
# 16 deals is about this size).
TOLERANCE = 0.5
# Card decisions from this trick on count for the engine signal (4 tricks left: 16 cards in
# the hands, the analyst's exact endgame).
ENGINE_FROM_TRICK = 5


@dataclass(frozen=True, slots=True)
class ShareTest:
    """A one-sided binomial test: ``hits`` of ``trials`` against the share ``baseline``."""

    signal: str
    hits: int
    trials: int
    baseline: float
    alpha: float
    min_trials: int
    p_value: float

    @property
    def share(self) -> float:
        return self.hits / self.trials if self.trials else 0.0

    @property
    def flagged(self) -> bool:
        """Above the baseline, significantly, on enough trials."""
        return (
            self.trials >= self.min_trials
            and self.share > self.baseline
            and self.p_value < self.alpha
        )

    def as_json(self) -> dict[str, Any]:
        body = asdict(self)
        body["share"] = round(self.share, 4)
        body["p_value"] = float(f"{self.p_value:.3g}")
        return body


def upper_tail(hits: int, trials: int, share: float) -> float:
    """P(X >= hits) for X ~ Binomial(trials, share), summed exactly in log space."""
    if hits <= 0:
        return 1.0
    if hits > trials:
        return 0.0
    if share <= 0.0:
        return 0.0
    if share >= 1.0:
        return 1.0
    log_p, log_q = math.log(share), math.log1p(-share)
    terms = [
        math.lgamma(trials + 1)
        - math.lgamma(k + 1)
        - math.lgamma(trials - k + 1)
        + k * log_p
        + (trials - k) * log_q
        for k in range(hits, trials + 1)
    ]
    top = max(terms)
    return min(1.0, math.exp(top) * sum(math.exp(t - top) for t in terms))


def share_test(
    signal: str, hits: int, trials: int, *, baseline: float, alpha: float, min_trials: int
) -> ShareTest:
    """The test of ``hits`` of ``trials`` against ``baseline`` (both signals end here)."""
    p_value = upper_tail(hits, trials, baseline)
    return ShareTest(signal, hits, trials, baseline, alpha, min_trials, p_value)


def shared_hands_test(
    decisions: Iterable[tuple[float, float | None]],
    *,
    baseline: float,
    alpha: float,
    min_trials: int,
    tolerance: float = TOLERANCE,
) -> ShareTest:
    """The partners' test over (loss, partner_loss) of each decision of both seats (a call's
    partner_loss is None and does not count)."""
    hits, trials = shared_hands_counts(decisions, tolerance)
    return share_test(
        SHARED_HANDS, hits, trials, baseline=baseline, alpha=alpha, min_trials=min_trials
    )


def shared_hands_counts(
    decisions: Iterable[tuple[float, float | None]], tolerance: float = TOLERANCE
) -> tuple[int, int]:
    """(discordant decisions fitting the partner-knowing valuation, discordant decisions)."""
    knowing = fair = 0
    for loss, partner_loss in decisions:
        if partner_loss is None:
            continue
        if partner_loss <= tolerance < loss:
            knowing += 1
        elif loss <= tolerance < partner_loss:
            fair += 1
    return knowing, knowing + fair


def engine_help_test(
    decisions: Iterable[tuple[float, int | None]],
    *,
    baseline: float,
    alpha: float,
    min_trials: int,
    tolerance: float = TOLERANCE,
    from_trick: int = ENGINE_FROM_TRICK,
) -> ShareTest:
    """The engine test over (loss, trick) of each of a player's decisions (a call's trick is
    None and does not count)."""
    hits, trials = engine_help_counts(decisions, tolerance, from_trick)
    return share_test(
        ENGINE_HELP, hits, trials, baseline=baseline, alpha=alpha, min_trials=min_trials
    )


def engine_help_counts(
    decisions: Iterable[tuple[float, int | None]],
    tolerance: float = TOLERANCE,
    from_trick: int = ENGINE_FROM_TRICK,
) -> tuple[int, int]:
    """(late cards that were the analyst's best, late cards)."""
    best = trials = 0
    for loss, trick in decisions:
        if trick is None or trick < from_trick:
            continue
        trials += 1
        if loss <= tolerance:
            best += 1
    return best, trials


@dataclass(frozen=True, slots=True)
class Thresholds:
    """One signal's settings: its window (matches), baseline, significance, fewest trials."""

    window: int
    baseline: float
    alpha: float
    min_trials: int


def thresholds(signal: str, conf: Mapping[str, Any]) -> Thresholds:
    """``signal``'s thresholds from the settings (``BALOOT``): the service and the bench
    read them here, so they test with the same ones."""
    prefix = "FAIRPLAY_SHARED_" if signal == SHARED_HANDS else "FAIRPLAY_ENGINE_"
    return Thresholds(
        window=int(conf[prefix + "WINDOW"]),
        baseline=float(conf[prefix + "BASELINE"]),
        alpha=float(conf["FAIRPLAY_ALPHA"]),
        min_trials=int(conf[prefix + "MIN_TRIALS"]),
    )
