"""Pairing rules of the two formats, pure: no Django, no database (docs/tournaments.md).

Teams are named by integers (entry ids). ``seeds`` lists them best first (rating, then entry
order); everything here is deterministic given its arguments.

Knockout (single elimination)
    The bracket is the next power of two at or above the field. Seeds are placed in the usual
    order (1 meets the lowest, and 1 and 2 can meet only in the final); the places past the
    field are byes, so the byes go to the top seeds and no two byes meet. A bye advances
    without a match. Each later round pairs the winners of neighbouring pairings.

Swiss
    Every team plays every round (an odd field: one bye, worth a win, to the lowest-ranked team
    that has not had one). Teams are ranked by the standings, then paired top down: each
    unpaired team meets the highest-ranked team below it that it has not met, backtracking when
    a choice leaves the rest unpairable. No two teams meet twice; if no such pairing of the
    whole field exists, the round cannot be paired and the tournament ends there.

Standings (Swiss, and the table shown for a knockout)
    1. match points: 1 a win (a bye and a forfeit won count as wins), 0 a loss;
    2. Buchholz: the sum of the match points of the teams met (a bye adds no opponent);
    3. point difference: game points scored minus conceded over the matches played (a bye or
       a walkover adds none; a forfeit, the score when it ended);
    4. seed, so that the order is total.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

Pair = tuple[int, int | None]  # (team, opponent); None: a bye


# --- Knockout -----------------------------------------------------------------------------


def bracket_size(teams: int) -> int:
    if teams < 2:
        raise ValueError("a knockout needs two teams")
    size = 1
    while size < teams:
        size *= 2
    return size


def seed_order(size: int) -> list[int]:
    """Seed numbers (1-based) in bracket order: neighbours meet in the first round, and the
    top two seeds are in different halves."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def knockout_first_round(seeds: Sequence[int]) -> list[Pair]:
    """The first round's pairings, in bracket order; a seed whose opponent would be past the
    field has a bye."""
    size = bracket_size(len(seeds))
    order = seed_order(size)
    pairs: list[Pair] = []
    for i in range(0, size, 2):
        a, b = order[i], order[i + 1]
        if a > b:
            a, b = b, a
        pairs.append((seeds[a - 1], seeds[b - 1] if b <= len(seeds) else None))
    return pairs


def knockout_next_round(winners: Sequence[int]) -> list[Pair]:
    """The next round from the previous round's winners in bracket order."""
    if len(winners) < 2 or len(winners) % 2:
        raise ValueError("a knockout round pairs an even number of winners")
    return [(winners[i], winners[i + 1]) for i in range(0, len(winners), 2)]


def knockout_rounds(teams: int) -> int:
    return bracket_size(teams).bit_length() - 1


# --- Swiss --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Result:
    """One pairing's outcome. ``b`` None is a bye for ``a``; ``winner`` is ``a`` or ``b``;
    scores are the match's game points (0 for a bye or a forfeit)."""

    a: int
    b: int | None
    winner: int
    score_a: int = 0
    score_b: int = 0


@dataclass(frozen=True, slots=True)
class Standing:
    team: int
    points: int
    buchholz: int
    difference: int
    seed: int  # 1-based
    played: int


def standings(seeds: Sequence[int], results: Iterable[Result]) -> list[Standing]:
    """The table, best first, by the tie-breaks in the module's note."""
    points = dict.fromkeys(seeds, 0)
    difference = dict.fromkeys(seeds, 0)
    played = dict.fromkeys(seeds, 0)
    met: dict[int, list[int]] = {t: [] for t in seeds}
    for r in results:
        points[r.winner] += 1
        played[r.a] += 1
        if r.b is None:
            continue
        played[r.b] += 1
        met[r.a].append(r.b)
        met[r.b].append(r.a)
        difference[r.a] += r.score_a - r.score_b
        difference[r.b] += r.score_b - r.score_a
    seed_of = {t: i + 1 for i, t in enumerate(seeds)}
    table = [
        Standing(
            team=t,
            points=points[t],
            buchholz=sum(points[o] for o in met[t]),
            difference=difference[t],
            seed=seed_of[t],
            played=played[t],
        )
        for t in seeds
    ]
    table.sort(key=lambda s: (-s.points, -s.buchholz, -s.difference, s.seed))
    return table


def opponents(results: Iterable[Result]) -> set[frozenset[int]]:
    return {frozenset((r.a, r.b)) for r in results if r.b is not None}


def had_bye(results: Iterable[Result]) -> set[int]:
    return {r.a for r in results if r.b is None}


class NoPairing(Exception):
    """No pairing of the field avoids a rematch (or none was found within the search's
    budget, which only a field close to having met everyone can exhaust)."""


# The most placements one round's search tries: a 64-team round pairs in well under a
# thousand; a field where no pairing exists could otherwise take exponential time to prove it.
SEARCH_BUDGET = 200_000


def swiss_round(ranked: Sequence[int], met: set[frozenset[int]], byes: set[int]) -> list[Pair]:
    """Pairings for one Swiss round of ``ranked`` (best first, withdrawn teams left out):
    top down, each team against the highest-ranked team below it it has not met; with an odd
    field the lowest-ranked team without a bye sits out with a bye."""
    teams = list(ranked)
    bye_options: list[int | None] = [None]
    if len(teams) % 2:
        # The lowest-ranked without a bye first; a second bye only if no one else can sit out.
        bye_options = [t for t in reversed(teams) if t not in byes]
        bye_options += [t for t in reversed(teams) if t in byes]
    budget = [SEARCH_BUDGET]
    for bye in bye_options:
        rest = [t for t in teams if t != bye]
        pairs = _pair_down(rest, met, budget)
        if pairs is not None:
            out: list[Pair] = [(a, b) for a, b in pairs]
            if bye is not None:
                out.append((bye, None))
            return out
    raise NoPairing()


def _pair_down(
    teams: list[int], met: set[frozenset[int]], budget: list[int]
) -> list[tuple[int, int]] | None:
    """Top-down pairing with backtracking (depth-first, the best-ranked choice first)."""
    if not teams:
        return []
    first, rest = teams[0], teams[1:]
    for i, other in enumerate(rest):
        if frozenset((first, other)) in met:
            continue
        budget[0] -= 1
        if budget[0] < 0:
            raise NoPairing()
        tail = _pair_down(rest[:i] + rest[i + 1 :], met, budget)
        if tail is not None:
            return [(first, other), *tail]
    return None
