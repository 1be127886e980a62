"""Projects (mashari'): patterns, validation, comparison and the best declaration (R7, R29-R31).

Sequences use the natural order A K Q J 10 9 8 7 (R7) in every suit, trump included; since a
card is ``suit * 8 + natural rank``, a run is a block of consecutive ints within one suit.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from .bidding import Mode
from .cards import ACE, JACK, KING, QUEEN, TEN, Card, Suit, cards_of, make_card
from .errors import IllegalMove
from .moves import Project, ProjectKind

# R29: (Sun points, Hokum points, raw abnat equivalent).
PROJECT_POINTS = {
    ProjectKind.SIRA: (4, 2, 20),
    ProjectKind.FIFTY: (10, 5, 50),
    ProjectKind.HUNDRED: (20, 10, 100),
    ProjectKind.FOUR_HUNDRED: (40, 0, 200),
}
BALOOT_POINTS = 2

_RUN_KIND = {3: ProjectKind.SIRA, 4: ProjectKind.FIFTY}
_FOUR_OF_A_KIND_100 = (KING, QUEEN, JACK, TEN)


def baloot_pair(trump: Suit) -> int:
    """The mask of the trump King and Queen (R32)."""
    return _BALOOT_PAIRS[trump]


_BALOOT_PAIRS = tuple((1 << make_card(s, KING)) | (1 << make_card(s, QUEEN)) for s in range(4))


def baloot_holder(hands: Sequence[int], trump: Suit | None) -> int | None:
    """R32: the seat whose cards (``hands[seat]``, masks) hold both the trump K and Q, or
    None (Sun, or the pair split between seats)."""
    if trump is None:
        return None
    pair = _BALOOT_PAIRS[trump]
    for seat in range(4):
        if hands[seat] & pair == pair:
            return seat
    return None


def project_points(project: Project, mode: Mode) -> int:
    sun, hokum, _ = PROJECT_POINTS[project.kind]
    return sun if mode is Mode.SUN else hokum


def project_raw(project: Project) -> int:
    return PROJECT_POINTS[project.kind][2]


def _is_run(cards: tuple[Card, ...]) -> bool:
    first = cards[0]
    return cards == tuple(range(first, first + len(cards))) and cards[-1] >> 3 == first >> 3


def _is_four_of_a_kind(cards: tuple[Card, ...]) -> bool:
    return len(cards) == 4 and len({c & 7 for c in cards}) == 1


def is_hundred_of_kings_or_queens(project: Project) -> bool:
    """A 100 of four Kings or four Queens (the hundreds that absorb a Baloot, S13)."""
    return (
        project.kind is ProjectKind.HUNDRED
        and _is_four_of_a_kind(project.cards)
        and project.cards[0] & 7 in (KING, QUEEN)
    )


def is_valid_project(project: Project, mode: Mode) -> bool:
    """Is ``project`` (cards sorted) the pattern its kind names, in this mode? (R29)"""
    cards = project.cards
    kind = project.kind
    if len(set(cards)) != len(cards):
        return False
    if kind in (ProjectKind.SIRA, ProjectKind.FIFTY):
        return _RUN_KIND.get(len(cards)) is kind and _is_run(cards)
    if kind is ProjectKind.HUNDRED:
        if len(cards) >= 5 and _is_run(cards):
            return True
        if _is_four_of_a_kind(cards):
            rank = cards[0] & 7
            return rank in _FOUR_OF_A_KIND_100 or (rank == ACE and mode is Mode.HOKUM)
        return False
    # FOUR_HUNDRED: four Aces, Sun only.
    return mode is Mode.SUN and _is_four_of_a_kind(cards) and cards[0] & 7 == ACE


def project_strength(project: Project) -> tuple[int, int]:
    """R31 strength, larger is stronger: (category, top card by natural rank)."""
    top = 7 - (project.cards[0] & 7)  # cards are sorted, so [0] has the highest natural rank
    kind = project.kind
    if kind is ProjectKind.FOUR_HUNDRED:
        return (5, top)
    if kind is ProjectKind.HUNDRED:
        return (4, top) if _is_run(project.cards) else (3, top)
    if kind is ProjectKind.FIFTY:
        return (2, top)
    return (1, top)


def validate_declaration(hand: int, projects: tuple[Project, ...], mode: Mode) -> None:
    """R30: one or two valid projects, every card held, no card in two projects."""
    if not projects:
        raise IllegalMove("invalid_project", "a declaration names one or two projects")
    if len(projects) > 2:
        raise IllegalMove("invalid_project", "at most two projects may be declared")
    used = 0
    for project in projects:
        if not is_valid_project(project, mode):
            raise IllegalMove(
                "invalid_project", f"those cards do not make a {project.kind.value} here"
            )
        for card in project.cards:
            bit = 1 << card
            if not hand & bit:
                raise IllegalMove("invalid_project", "a declared card is not in your hand")
            if used & bit:
                raise IllegalMove("invalid_project", "no card may be used in two projects")
            used |= bit


def available_projects(hand: int, mode: Mode) -> list[Project]:
    """Every valid single project in ``hand``, shorter runs inside longer ones included."""
    found: list[Project] = []
    cards = cards_of(hand)
    held = set(cards)
    # Runs: every block of >= 3 consecutive natural ranks in one suit.
    for suit in range(4):
        ranks = [c for c in cards if c >> 3 == suit]
        for i, start in enumerate(ranks):
            length = 1
            while i + length < len(ranks) and ranks[i + length] == start + length:
                length += 1
            for n in range(3, length + 1):
                kind = _RUN_KIND.get(n, ProjectKind.HUNDRED)
                found.append(Project(kind, tuple(range(start, start + n))))
    for rank in (ACE, KING, QUEEN, JACK, TEN):
        four = tuple(s * 8 + rank for s in range(4))
        if all(c in held for c in four):
            if rank == ACE:
                kind = ProjectKind.FOUR_HUNDRED if mode is Mode.SUN else ProjectKind.HUNDRED
            else:
                kind = ProjectKind.HUNDRED
            found.append(Project(kind, four))
    return found


def best_declaration(hand: int, mode: Mode) -> tuple[Project, ...]:
    """The declaration (0-2 disjoint projects) worth the most points, then the strongest."""
    options = available_projects(hand, mode)
    best: tuple[Project, ...] = ()
    best_key: tuple[int, tuple[int, int]] = (0, (0, 0))
    candidates: list[tuple[Project, ...]] = [(p,) for p in options]
    candidates += [
        pair for pair in combinations(options, 2) if not set(pair[0].cards) & set(pair[1].cards)
    ]
    for candidate in candidates:
        key = (
            sum(project_points(p, mode) for p in candidate),
            max(project_strength(p) for p in candidate),
        )
        if key > best_key:
            best, best_key = candidate, key
    return best


def everyones_best_declarations(
    hands: Sequence[int], first: int, mode: Mode
) -> tuple[tuple[int, tuple[Project, ...]], ...]:
    """Every seat's best declaration (R30), in turn from ``first``, for a round played out
    with every seat declaring what it can (the bots' simulations)."""
    declarations = []
    for i in range(4):
        seat = (first + i) % 4
        best = best_declaration(hands[seat], mode)
        if best:
            declarations.append((seat, best))
    return tuple(declarations)


def awarded_team(
    declarations: tuple[tuple[int, tuple[Project, ...]], ...], order: tuple[int, ...]
) -> int | None:
    """R31: the team whose best project is stronger; equal strength goes to the seat earlier
    in bidding order. None when nobody declared."""
    best: tuple[tuple[int, int], int] | None = None
    winner: int | None = None
    for seat, projects in declarations:
        priority = -order.index(seat)
        for project in projects:
            key = (project_strength(project), priority)
            if best is None or key > best:
                best, winner = key, seat % 2
    return winner
