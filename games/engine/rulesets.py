"""Rulesets are data: a frozen set of named options passed into the engine.

Each match stores its ruleset's name and version so a round replays the same way forever.
Only options the engine honours live here; a new ruleset adds options and the code that reads
them, never `if name == ...` branches. Every option's default is the `gamerules` behaviour
(rules.md), so `GAMERULES` is the plain `Ruleset(name, version)`; `SAUDI` (rules-saudi.md) is
the same table with the Saudi decisions switched on.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Ruleset:
    name: str
    version: int
    default_target: int = 152
    # R39: kaboot value, and the value when the bidding team sweeps having bid on a face-up Ace.
    kaboot_points: int = 44
    kaboot_ace_points: int = 88
    # R22: a Sun contract may be doubled only if the declarer's team has more than this and
    # the opponents less than this, at the start of the hand.
    sun_doubling_threshold: int = 100
    # R10: positions in the bidding order (0-based) allowed to call Ashkal.
    ashkal_positions: tuple[int, ...] = (2, 3)

    # --- Options of rules-saudi.md; each default is rules.md's behaviour -------------------
    # S3: Ashkal may be called when the face-up card is an Ace.
    ashkal_on_ace: bool = True
    # S4 (R25 otherwise): trick 1 is led by the dealer's right instead of the declarer.
    first_lead_dealer_right: bool = False
    # S5-S7 (R26 otherwise): in Hokum, compulsory trumping and over-trumping.
    compulsory_trumping: bool = False
    # S8: in Sun the ladder stops at Double.
    sun_double_only: bool = False
    # S9: the Sun opponents may have at most this many points; None is R22's "less than
    # sun_doubling_threshold".
    sun_doubling_opponents_max: int | None = None
    # S10 (R23 otherwise): the caller of Double and of Four chooses open or closed.
    lock_chosen_by_caller: bool = False
    # S13: a seat's Baloot is absorbed by its own awarded four-Kings / four-Queens 100.
    baloot_absorbed_by_hundred: bool = False
    # S14/S15 (R36 otherwise): a full tie is a split at x1, lost by the last raiser if doubled.
    full_tie_split: bool = False
    # S16 + S17 (R39-R41 otherwise): Baloot always stays with its holder's team, and a kaboot
    # is flat (never multiplied, only the sweeping team's own projects, no 88 so
    # `kaboot_ace_points` is not read).
    saudi_allocation: bool = False
    # R39/S17: the kaboot value in Hokum; None is kaboot_points (R39: 44 in both modes).
    kaboot_hokum_points: int | None = None
    # S20-S26: the Sawa claim.
    sawa: bool = False


GAMERULES = Ruleset(name="gamerules", version=1)

# rules-saudi.md S.0: every variant decision as one option.
SAUDI = Ruleset(
    name="saudi",
    version=1,
    ashkal_on_ace=False,
    first_lead_dealer_right=True,
    compulsory_trumping=True,
    sun_double_only=True,
    sun_doubling_opponents_max=100,
    lock_chosen_by_caller=True,
    baloot_absorbed_by_hundred=True,
    full_tie_split=True,
    saudi_allocation=True,
    kaboot_hokum_points=25,
    sawa=True,
)

RULESETS: dict[str, Ruleset] = {GAMERULES.name: GAMERULES, SAUDI.name: SAUDI}


def get_ruleset(name: str) -> Ruleset:
    try:
        return RULESETS[name]
    except KeyError:
        raise KeyError(f"unknown ruleset {name!r}") from None
