"""Rulesets are data: a frozen set of named options passed into the engine.

Each match stores its ruleset's name and version so a round replays the same way forever.
Only options the engine honours live here; a new ruleset (the Saudi variants of rules.md 5.8)
adds options and the code that reads them, never `if name == ...` branches.
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


GAMERULES = Ruleset(name="gamerules", version=1)

RULESETS: dict[str, Ruleset] = {GAMERULES.name: GAMERULES}


def get_ruleset(name: str) -> Ruleset:
    try:
        return RULESETS[name]
    except KeyError:
        raise KeyError(f"unknown ruleset {name!r}") from None
