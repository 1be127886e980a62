"""Determinization: deal the hidden cards so that they agree with one seat's observation, and
build a full ``GameState`` for the normal bot's playouts.

Only the observation is read. The sampled deal respects every certain fact ``knowledge.infer``
derives (voids, pinned cards, hand sizes); within those limits each card goes to a seat with
probability proportional to the seat's free places, which is exactly uniform when nothing is
constrained and close to uniform otherwise. A Hall-condition check before every placement
guarantees the sampler never paints itself into a corner.
"""

from __future__ import annotations

import random
from dataclasses import replace

from ..bidding import Ladder, Mode
from ..cards import QUEEN, make_card
from ..moves import Move, Project, ProjectKind
from ..observation import Observation
from ..projects import available_projects, baloot_holder
from ..rules import playing_state
from ..rulesets import GAMERULES, Ruleset
from ..state import GameState, Phase
from .knowledge import Knowledge, infer
from .policy import bits


def _feasible(types: dict[int, int], cap: list[int], subsets: list[int]) -> bool:
    """Hall's condition: for every set S of seats, the cards that may only go to seats in S
    fit in their free places."""
    for subset in subsets:
        room = sum(cap[s] for s in range(4) if subset >> s & 1)
        need = sum(n for allowed, n in types.items() if n and allowed & ~subset == 0)
        if need > room:
            return False
    return True


def sample_hands(knowledge: Knowledge, rng: random.Random) -> tuple[int, int, int, int]:
    seat = knowledge.seat
    others = [s for s in range(4) if s != seat]
    cap = [0, 0, 0, 0]
    for s in others:
        cap[s] = knowledge.counts[s] - knowledge.known[s].bit_count()
    all_others = sum(1 << s for s in others)
    subsets = [m for m in range(16) if m & all_others == m]  # the empty set included
    cards = bits(knowledge.unknown)
    rng.shuffle(cards)
    allowed_of: dict[int, int] = {}
    types: dict[int, int] = {}
    for card in cards:
        allowed = sum(1 << s for s in others if not knowledge.excluded[s] >> card & 1)
        allowed_of[card] = allowed
        types[allowed] = types.get(allowed, 0) + 1
    if not _feasible(types, cap, subsets):
        raise ValueError("the observation admits no deal")
    # Most constrained cards first: fewer tentative placements to undo.
    cards.sort(key=lambda c: allowed_of[c].bit_count())
    hands = list(knowledge.known)
    hands[seat] = knowledge.own
    for card in cards:
        # Once only unconstrained cards remain, any placement fits (the sort put them last).
        free = allowed_of[card] == all_others
        allowed = allowed_of[card]
        types[allowed] -= 1
        options = [s for s in others if allowed >> s & 1 and cap[s] > 0]
        while True:
            choice = rng.choices(options, weights=[cap[s] for s in options])[0]
            cap[choice] -= 1
            if free or _feasible(types, cap, subsets):
                break
            cap[choice] += 1
            options.remove(choice)
        hands[choice] |= 1 << card
    return (hands[0], hands[1], hands[2], hands[3])


def public_state(obs: Observation, ruleset: Ruleset = GAMERULES) -> GameState:
    """A GameState holding exactly the public part of ``obs`` plus the seat's own hand; the
    other hands are empty until ``determinize`` fills them."""
    if obs.phase is not Phase.PLAYING or obs.contract is None or obs.seat is None:
        raise ValueError("determinization is for a seated observation during play")
    hands = [0, 0, 0, 0]
    for card in obs.hand:
        hands[obs.seat] |= 1 << card
    # Bids precede doubling calls, so this is the real order of the calls made this round.
    actions: tuple[tuple[int, Move], ...] = (*obs.calls, *obs.doubles)
    return playing_state(
        ruleset=ruleset,
        contract=obs.contract,
        hands=(hands[0], hands[1], hands[2], hands[3]),
        dealer=obs.dealer,
        scores=obs.scores,
        target=obs.target,
        round_no=obs.round_no,
        ladder=Ladder(
            rung=None, queue=(), multiplier=obs.multiplier, doubler=obs.doubler, gahwa=obs.gahwa
        ),
        leader=obs.leader,
        trick=obs.trick,
        tricks=obs.tricks,
        abnat=obs.abnat,
        trick_counts=obs.trick_counts,
        baloot_seat=obs.baloot[0] if obs.baloot else None,
        baloot_announced=bool(obs.baloot),
        actions=actions,
    )


# Stand-ins for a declaration whose cards are still secret (R30: public after trick 1) when the
# sampled hand holds no project of that kind. Only the kind matters for the points; the cards
# set the comparison strength (R31), for which a middling top card is a neutral guess.
_PLACEHOLDER = {
    ProjectKind.SIRA: (make_card(0, 3), make_card(0, 4), make_card(0, 5)),
    ProjectKind.FIFTY: (make_card(1, 3), make_card(1, 4), make_card(1, 5), make_card(1, 6)),
    ProjectKind.HUNDRED: tuple(make_card(s, QUEEN) for s in range(4)),
    ProjectKind.FOUR_HUNDRED: tuple(make_card(s, 0) for s in range(4)),
}


def _secret_projects(kinds: tuple[str, ...], held: int, mode: Mode) -> tuple[Project, ...]:
    options = available_projects(held, mode)
    used = 0
    out: list[Project] = []
    for kind_name in kinds:
        kind = ProjectKind(kind_name)
        pick = next(
            (p for p in options if p.kind is kind and not used & sum(1 << c for c in p.cards)),
            None,
        )
        if pick is None:
            pick = Project(kind, _PLACEHOLDER[kind])
        used |= sum(1 << c for c in pick.cards)
        out.append(pick)
    return tuple(out)


def with_hands(
    base: GameState, obs: Observation, knowledge: Knowledge, hands: tuple[int, int, int, int]
) -> GameState:
    """``base`` (from ``public_state``) with a sampled deal, and what the deal decides:
    secret declarations and the Baloot holder."""
    contract = base.contract
    assert contract is not None
    declarations = []
    for public in obs.declarations:
        if public.projects is not None:
            declarations.append((public.seat, public.projects))
        else:
            held = hands[public.seat] | knowledge.played_by[public.seat]
            declarations.append((public.seat, _secret_projects(public.kinds, held, contract.mode)))
    baloot_seat = base.baloot_seat
    if baloot_seat is None and contract.trump is not None:
        # R32: whoever held both trump K and Q in the final hand (not yet announced).
        holdings = [hands[s] | knowledge.played_by[s] for s in range(4)]
        baloot_seat = baloot_holder(holdings, contract.trump)
    return replace(base, hands=hands, declarations=tuple(declarations), baloot_seat=baloot_seat)


def determinize(obs: Observation, rng: random.Random, ruleset: Ruleset = GAMERULES) -> GameState:
    """One full GameState consistent with ``obs``."""
    knowledge = infer(obs, ruleset)
    base = public_state(obs, ruleset)
    return with_hands(base, obs, knowledge, sample_hands(knowledge, rng))
