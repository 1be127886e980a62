"""The fair-play signals' statistics (``moderation.fairplay``, pure): the binomial tail, what
each test counts, when it flags, and the thresholds of the settings on simulated populations
at small scale (bots playing fair against a pair that sees each other's hands).

No database: these are the functions the service and ``make bench-fairplay`` both call.
"""

from __future__ import annotations

import math

import pytest
from django.conf import settings

from bench.fairplay_sim import play_and_analyse
from moderation import fairplay


def test_the_binomial_tail_matches_hand_worked_values() -> None:
    # Binomial(10, 1/2): P(X >= 8) = (45 + 10 + 1) / 1024.
    assert fairplay.upper_tail(8, 10, 0.5) == pytest.approx(56 / 1024, rel=1e-12)
    # All twenty at 0.72: 0.72 ** 20.
    assert fairplay.upper_tail(20, 20, 0.72) == pytest.approx(0.72**20, rel=1e-9)
    assert fairplay.upper_tail(0, 20, 0.3) == 1.0
    assert fairplay.upper_tail(21, 20, 0.3) == 0.0
    # Binomial(3, 0.2): P(X >= 2) = 3 * 0.04 * 0.8 + 0.008.
    assert fairplay.upper_tail(2, 3, 0.2) == pytest.approx(0.104, rel=1e-12)
    # Far in the tail it stays a probability, not an underflow to zero or an overflow.
    tiny = fairplay.upper_tail(900, 1000, 0.5)
    assert 0.0 < tiny < 1e-100 and math.isfinite(tiny)


def test_the_partners_test_counts_only_discordant_card_decisions() -> None:
    decisions = [
        (2.0, 0.0),  # fits the partner's hand only
        (2.0, 0.4),  # within the tolerance of the knowing best: fits it only
        (0.0, 2.0),  # fits the fair evaluation only
        (0.0, 0.0),  # the best by both: not discordant
        (3.0, 3.0),  # off by both: not discordant
        (2.0, None),  # a call: no partner-knowing value
    ]
    test = fairplay.shared_hands_test(decisions, baseline=0.5, alpha=0.05, min_trials=1)
    assert (test.hits, test.trials) == (2, 3)
    assert test.p_value == pytest.approx(0.5, rel=1e-12)  # P(X >= 2), X ~ Bin(3, 1/2)
    assert not test.flagged


def test_the_engine_test_counts_late_cards_only() -> None:
    decisions = [(0.0, None), (0.0, 2), (0.0, 5), (0.3, 6), (1.0, 7), (0.0, 8)]
    test = fairplay.engine_help_test(decisions, baseline=0.5, alpha=0.05, min_trials=1)
    assert (test.hits, test.trials) == (3, 4)


def test_a_test_flags_only_above_its_baseline_significantly_and_on_enough_trials() -> None:
    def partners(hits: int, misses: int, **options: float) -> fairplay.ShareTest:
        rows = [(2.0, 0.0)] * hits + [(0.0, 2.0)] * misses
        conf = {"baseline": 0.6, "alpha": 1e-3, "min_trials": 50, **options}
        return fairplay.shared_hands_test(
            rows,
            baseline=conf["baseline"],
            alpha=conf["alpha"],
            min_trials=int(conf["min_trials"]),
        )

    assert partners(90, 10).flagged  # 90% against 60%, on 100
    assert not partners(9, 1).flagged  # as extreme, on too few trials
    assert not partners(66, 34).flagged  # above the baseline, not significantly
    assert not partners(90, 10, baseline=0.92).flagged  # below the baseline
    assert partners(66, 34, alpha=0.2).flagged  # significant at a looser level
    assert partners(90, 10).as_json()["share"] == 0.9


@pytest.mark.slow
def test_the_settings_thresholds_separate_cheats_from_honest_play() -> None:
    """Small scale: with the settings' thresholds, a pair that sees each other's hands is
    flagged within four matches, and honest pairs of the two levels whose shares run highest
    (bench/RESULTS.md: easy, then normal; hard's is the lowest) stay below the baseline over
    two; the same honest seats stay below the engine signal's baseline, which the posing hard
    bot's share (on its own few matches) sits above."""
    conf = settings.BALOOT

    def seats(kinds: list[str], seeds: range) -> list[tuple[float, float | None, int | None]]:
        return [
            d
            for seed in seeds
            for seat in play_and_analyse(seed, kinds, engine_samples=64)
            if seat.seat in (0, 2)
            for d in seat.decisions
        ]

    def shared(rows: list[tuple[float, float | None, int | None]]) -> fairplay.ShareTest:
        return fairplay.shared_hands_test(
            [(loss, partner) for loss, partner, _ in rows],
            baseline=conf["FAIRPLAY_SHARED_BASELINE"],
            alpha=conf["FAIRPLAY_ALPHA"],
            min_trials=conf["FAIRPLAY_SHARED_MIN_TRIALS"],
        )

    def engine(rows: list[tuple[float, float | None, int | None]]) -> fairplay.ShareTest:
        return fairplay.engine_help_test(
            [(loss, trick) for loss, _, trick in rows],
            baseline=conf["FAIRPLAY_ENGINE_BASELINE"],
            alpha=conf["FAIRPLAY_ALPHA"],
            min_trials=conf["FAIRPLAY_ENGINE_MIN_TRIALS"],
        )

    peeking = shared(seats(["peek", "normal", "peek", "normal"], range(1, 5)))
    assert peeking.flagged, peeking
    for level in ("easy", "normal"):
        rows = seats([level] * 4, range(1, 3))
        honest = shared(rows)
        assert honest.share < conf["FAIRPLAY_SHARED_BASELINE"] and not honest.flagged, honest
        assert engine(rows).share < conf["FAIRPLAY_ENGINE_BASELINE"], engine(rows)
    posing = engine(seats(["engine", "normal", "engine", "normal"], range(1, 3)))
    assert posing.share > conf["FAIRPLAY_ENGINE_BASELINE"], posing
