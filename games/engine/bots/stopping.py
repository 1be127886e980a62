"""When a search has seen enough: the best option leads every other by ``z`` standard errors of
the deal-by-deal difference, give or take ``TOLERANCE``.

Every option is valued on the same deals, so the difference between two options is measured
deal by deal and the luck of the deals cancels: a clear best move is settled after a handful of
deals, a close call gets the whole budget. Used by the normal and hard bots' searches, to answer
sooner when the answer is plain.
"""

from __future__ import annotations

import math

# Fewer deals than this say too little about the spread to stop on (the normal approximation
# behind ``z`` needs a few).
MIN_DEALS = 8
# Options this close (round-score points) are as good as each other: two cards that always
# play the same (a 7 and an 8 of one suit) must not keep the search going to the budget.
TOLERANCE = 0.1


def settled(values: list[list[float]], z: float, weights: list[float] | None = None) -> bool:
    """``values[i][k]``: option ``i`` on deal ``k`` (every option on the same deals);
    ``weights[k]``: deal ``k``'s weight (all 1 when None)."""
    if len(values) < 2:
        return True
    n = len(values[0])
    if n < MIN_DEALS:
        return False
    w = weights if weights is not None else [1.0] * n
    total = sum(w)
    if total <= 0:
        return True
    means = [sum(wk * v for wk, v in zip(w, vs, strict=True)) / total for vs in values]
    best = means.index(max(means))
    # Kish's effective number of deals: n when the weights are equal.
    effective = total * total / sum(wk * wk for wk in w)
    if effective < 2:
        return False
    for i, other in enumerate(values):
        if i == best:
            continue
        lead = means[best] - means[i]
        var = (
            sum(wk * (a - b - lead) ** 2 for wk, a, b in zip(w, values[best], other, strict=True))
            / total
            * effective
            / (effective - 1)
        )
        if lead + TOLERANCE <= z * math.sqrt(var / effective):
            return False
    return True
