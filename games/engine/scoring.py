"""Round scoring (R33-R41): conversions, success, allocation, kaboot, multipliers, Gahwa.

The `saudi` options replace some of these (rules-saudi.md S13-S18, S23-S24): ties, Baloot
that stays with its holder, the flat kaboot and the Sawa claim. Each is read from the ruleset
where the rule it replaces is applied.
"""

from __future__ import annotations

from dataclasses import dataclass

from .bidding import Contract, Mode
from .cards import ACE
from .frozen import frozen_for_readers
from .moves import Project
from .projects import (
    BALOOT_POINTS,
    awarded_team,
    is_hundred_of_kings_or_queens,
    project_points,
    project_raw,
)
from .rulesets import Ruleset

SUN_BASE = 26
HOKUM_BASE = 16

# Enum members are slow to look up on their class in Python 3.11 (bidding.py says why).
_SUN, _HOKUM = Mode.SUN, Mode.HOKUM


@dataclass(frozen=True, slots=True)
class SawaClaim:
    """S25: who called Sawa and whether the claim held (S22)."""

    seat: int
    valid: bool


@frozen_for_readers
class RoundResult:
    abnat: tuple[int, int]
    card_points: tuple[int, int]
    declared: tuple[tuple[int, tuple[Project, ...]], ...]  # (seat, projects) in order made
    awarded_team: int | None
    project_points: tuple[int, int]  # the awarded team's points (unmultiplied) in its slot
    baloot: tuple[int, ...]  # seats that made Baloot
    kaboot: int | None
    bidder_team: int | None
    bidder_failed: bool
    points: tuple[int, int]  # what the round adds to the match totals
    gahwa_winner: int | None
    sawa: SawaClaim | None = None  # S25 (only a ruleset with Sawa ever sets it)


REDEAL_RESULT = RoundResult(
    abnat=(0, 0),
    card_points=(0, 0),
    declared=(),
    awarded_team=None,
    project_points=(0, 0),
    baloot=(),
    kaboot=None,
    bidder_team=None,
    bidder_failed=False,
    points=(0, 0),
    gahwa_winner=None,
)


def sun_card_points(abnat: int) -> int:
    """R33: nearest 10 with ...5 kept exact, then x2/10 (the floor-to-even integer form)."""
    q, r = divmod(abnat, 5)
    return q + (1 if q % 2 == 1 and r > 0 else 0)


def hokum_card_points(abnat: int) -> int:
    """R34 per team: .5 goes down."""
    return abnat // 10 + (1 if abnat % 10 >= 6 else 0)


def card_points(abnat: tuple[int, int], mode: Mode) -> tuple[int, int]:
    if mode is _SUN:
        return (sun_card_points(abnat[0]), sun_card_points(abnat[1]))
    a, b = hokum_card_points(abnat[0]), hokum_card_points(abnat[1])
    if a + b == 17:  # R34: both totals end in 6; the larger abnat loses one
        if abnat[0] > abnat[1]:
            a -= 1
        else:
            b -= 1
    return (a, b)


def score_round(
    *,
    contract: Contract,
    ruleset: Ruleset,
    abnat: tuple[int, int],
    trick_counts: tuple[int, int],
    declarations: tuple[tuple[int, tuple[Project, ...]], ...],
    order: tuple[int, ...],
    baloot_seat: int | None,
    multiplier: int,
    gahwa: bool,
    sawa: SawaClaim | None = None,
) -> RoundResult:
    """The round's result. A valid ``sawa`` comes with the abnat and trick counts of the
    whole round (S23); a false one with those of the tricks played (S24)."""
    mode = contract.mode
    bidder = contract.bidder_team
    base = SUN_BASE if mode is _SUN else HOKUM_BASE
    pts = card_points(abnat, mode)

    awarded = awarded_team(declarations, order) if declarations else None
    awarded_points = 0
    awarded_raw = 0
    if awarded is not None:
        for seat, projects in declarations:
            if seat % 2 == awarded:
                awarded_points += sum(project_points(p, mode) for p in projects)
                awarded_raw += sum(project_raw(p) for p in projects)
    proj = [0, 0]
    raw_proj = [0, 0]
    if awarded is not None:
        proj[awarded] = awarded_points
        raw_proj[awarded] = awarded_raw

    baloot = (baloot_seat,) if baloot_seat is not None and mode is _HOKUM else ()
    if (
        baloot
        and ruleset.baloot_absorbed_by_hundred
        and awarded == baloot[0] % 2
        and _declared_kings_or_queens_100(baloot[0], declarations)
    ):
        baloot = ()  # S13: the awarded four-K/Q 100 of the same seat absorbs it
    baloot_total = BALOOT_POINTS * len(baloot)

    false_sawa = sawa is not None and not sawa.valid
    kaboot = 0 if trick_counts[1] == 0 else 1 if trick_counts[0] == 0 else None
    if false_sawa:
        assert sawa is not None
        kaboot = None
        failed = sawa.seat % 2 == bidder  # S24: a khasara of the claimant's team
    elif kaboot is not None:
        failed = kaboot != bidder
    else:
        # R36: T = card points + awarded project points; ties go to raw abnat.
        t = (pts[0] + proj[0], pts[1] + proj[1])
        raw = (abnat[0] + raw_proj[0], abnat[1] + raw_proj[1])
        opp = 1 - bidder
        if ruleset.full_tie_split:
            failed = _fails_saudi(t, raw, bidder, multiplier, gahwa)
        else:
            failed = not (t[bidder] > t[opp] or (t[bidder] == t[opp] and raw[bidder] > raw[opp]))

    if gahwa:
        # R43: the round decides the match; no point arithmetic.
        if false_sawa:
            assert sawa is not None
            winner: int | None = 1 - sawa.seat % 2  # S24
        else:
            winner = kaboot if kaboot is not None else (1 - bidder if failed else bidder)
        points = (0, 0)
    elif ruleset.saudi_allocation:
        winner = None
        points = _allocate_saudi(
            mode=mode,
            bidder=bidder,
            failed=failed,
            kaboot=kaboot,
            sawa=sawa,
            ruleset=ruleset,
            base=base,
            t=(pts[0] + proj[0], pts[1] + proj[1]),
            proj=(proj[0], proj[1]),
            awarded_points=awarded_points,
            baloot_team=None if not baloot else baloot[0] % 2,
            baloot_total=baloot_total,
            multiplier=multiplier,
        )
    else:
        winner = None
        points = _allocate(
            bidder=bidder,
            failed=failed,
            kaboot=kaboot,
            kaboot_value=0 if kaboot is None else _kaboot_value(contract, kaboot, ruleset),
            base=base,
            t=(pts[0] + proj[0], pts[1] + proj[1]),
            awarded_points=awarded_points,
            baloot_team=None if not baloot else baloot[0] % 2,
            baloot_total=baloot_total,
            multiplier=multiplier,
        )
    return RoundResult(
        abnat=abnat,
        card_points=pts,
        declared=declarations,
        awarded_team=awarded,
        project_points=(proj[0], proj[1]),
        baloot=baloot,
        kaboot=kaboot,
        bidder_team=bidder,
        bidder_failed=failed,
        points=points,
        gahwa_winner=winner,
        sawa=sawa,
    )


def _declared_kings_or_queens_100(
    seat: int, declarations: tuple[tuple[int, tuple[Project, ...]], ...]
) -> bool:
    return any(
        s == seat and is_hundred_of_kings_or_queens(p)
        for s, projects in declarations
        for p in projects
    )


def _fails_saudi(
    t: tuple[int, int], raw: tuple[int, int], bidder: int, multiplier: int, gahwa: bool
) -> bool:
    """S14/S15: the bidder fails on fewer points, or equal points and less raw. A full tie is
    a split at x1; doubled, the team that made the last raise loses it: the doubler at x2 and
    x4, the bidder at x3 and Gahwa."""
    opp = 1 - bidder
    if t[bidder] != t[opp]:
        return t[bidder] < t[opp]
    if raw[bidder] != raw[opp]:
        return raw[bidder] < raw[opp]
    return gahwa or multiplier == 3


def _allocate_saudi(
    *,
    mode: Mode,
    bidder: int,
    failed: bool,
    kaboot: int | None,
    sawa: SawaClaim | None,
    ruleset: Ruleset,
    base: int,
    t: tuple[int, int],
    proj: tuple[int, int],
    awarded_points: int,
    baloot_team: int | None,
    baloot_total: int,
    multiplier: int,
) -> tuple[int, int]:
    """S16, S17, S24: Baloot always stays with its holder's team and is never multiplied."""
    out = [0, 0]
    if baloot_team is not None:
        out[baloot_team] = baloot_total
    if sawa is not None and not sawa.valid:
        # S24: the other team takes the whole stake, as in any doubled khasara.
        other = 1 - sawa.seat % 2
        out[other] += (base + awarded_points) * multiplier
    elif kaboot is not None:
        # S17: flat, with only the sweeping team's own projects; no 88.
        value = ruleset.kaboot_points if mode is _SUN else _kaboot_hokum(ruleset)
        out[kaboot] += value + proj[kaboot]
    elif multiplier == 1 and not failed:
        out[0] += t[0]  # R37 (a full tie is a split, S14)
        out[1] += t[1]
    else:
        winner = 1 - bidder if failed else bidder
        out[winner] += (base + awarded_points) * multiplier  # R38, R40
    return (out[0], out[1])


def _kaboot_hokum(ruleset: Ruleset) -> int:
    return (
        ruleset.kaboot_points
        if ruleset.kaboot_hokum_points is None
        else ruleset.kaboot_hokum_points
    )


def _kaboot_value(contract: Contract, kaboot: int | None, ruleset: Ruleset) -> int:
    # R39: 88 when the bidding team sweeps having bid for a face-up Ace.
    if kaboot == contract.bidder_team and contract.face_up & 7 == ACE:
        return ruleset.kaboot_ace_points
    return ruleset.kaboot_points if contract.mode is _SUN else _kaboot_hokum(ruleset)


def _allocate(
    *,
    bidder: int,
    failed: bool,
    kaboot: int | None,
    kaboot_value: int,
    base: int,
    t: tuple[int, int],
    awarded_points: int,
    baloot_team: int | None,
    baloot_total: int,
    multiplier: int,
) -> tuple[int, int]:
    out = [0, 0]
    if kaboot is not None:  # R39, R41.2: everything to the sweeping team
        out[kaboot] = (kaboot_value + awarded_points) * multiplier + baloot_total
        return (out[0], out[1])
    opp = 1 - bidder
    if failed:  # R38/R40, R41.1: the bidder's Baloot goes to the opponents too
        out[opp] = (base + awarded_points) * multiplier + baloot_total
        return (out[0], out[1])
    own_baloot = [0, 0]
    if baloot_team is not None:
        own_baloot[baloot_team] = baloot_total
    if multiplier == 1:  # R37
        return (t[0] + own_baloot[0], t[1] + own_baloot[1])
    # R40: the bidder takes the whole base; the opponents keep only their Baloot.
    out[bidder] = (base + awarded_points) * multiplier + own_baloot[bidder]
    out[opp] = own_baloot[opp]
    return (out[0], out[1])
