"""The normal bot: Perfect Information Monte Carlo for card play.

For each decision it deals the hidden cards many times consistently with its observation
(``determinize``), plays every legal card on every deal to the end of the round (heuristic
playouts, exact alpha-beta for the last three tricks) and picks the card with the best mean
round-score margin for its team. The same deals are used for every candidate, which cancels
most of the deal-to-deal noise between candidates; it stops early once the best card is plain
(``stopping.settled``). Each contract it could bid is valued by simulated deals
(``bidsim.contract_value``) and called when it beats passing by a margin; doubling and
declaring reuse the easy bot's rules of thumb.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from ..moves import Bid, Call, Declare, Move, Play
from ..observation import Observation
from ..rulesets import GAMERULES, Ruleset
from ..state import Phase
from . import easy
from .bidsim import contract_value
from .determinize import public_state, sample_hands, with_hands
from .knowledge import infer
from .simulate import Playout
from .stopping import settled

# A contract is bid only if its simulated margin beats passing. Passing is worth more when the
# standing bid is the partner's: taking it over risks our team's contract for a small gain.
PASS_VALUE = 2.0
PASS_VALUE_PARTNER_BID = 8.0


@dataclass(frozen=True, slots=True)
class NormalConfig:
    # Wall-clock budget per card decision, in seconds (ignored when ``samples`` is set). The
    # service's default (BALOOT_BOT_TIME_BUDGET): about 70 deals on an idle core, and a reply
    # within 150 ms at p95 under ``make bench-load`` (bench/RESULTS.md, "Load"); most cards
    # settle sooner.
    budget: float = 0.04
    # A fixed number of deals per decision: deterministic given the rng, for tests and evals.
    samples: int | None = None
    min_samples: int = 4
    max_samples: int = 200
    # Stop once the best card leads every other by this many standard errors (the same deals
    # for every card): a plain choice is made in a few deals, a close one gets the budget.
    stop_z: float = 3.0
    # Simulated deals per candidate contract when bidding (0: the easy bot's rules of thumb).
    bid_samples: int = 48


DEFAULT_CONFIG = NormalConfig()


def choose(
    obs: Observation,
    rng: random.Random,
    config: NormalConfig = DEFAULT_CONFIG,
    ruleset: Ruleset = GAMERULES,
) -> Move:
    if obs.projects_suggested:
        return Declare(obs.projects_suggested)
    if obs.phase is Phase.BIDDING:
        if config.bid_samples <= 0:
            return easy.choose_bid(obs)
        return choose_bid(obs, rng, config, ruleset)
    if obs.phase is Phase.DOUBLING:
        return easy.choose_double(obs)
    return choose_play(obs, rng, config, ruleset)


def choose_play(
    obs: Observation, rng: random.Random, config: NormalConfig, ruleset: Ruleset
) -> Play:
    candidates = [m for m in obs.legal_moves if isinstance(m, Play)]
    if len(candidates) == 1:
        return candidates[0]
    assert obs.seat is not None
    fallback = easy.choose_play(obs)
    knowledge = infer(obs, ruleset)
    base = public_state(obs, ruleset)
    team = obs.seat % 2
    values: list[list[float]] = [[] for _ in candidates]
    start = time.perf_counter()
    n = 0
    while True:
        state = with_hands(base, obs, knowledge, sample_hands(knowledge, rng))
        playout = Playout(state, team)
        for i, move in enumerate(candidates):
            values[i].append(playout.evaluate(move.card))
        n += 1
        if config.samples is not None:
            if n >= config.samples:
                break
            continue
        elapsed = time.perf_counter() - start
        # Stop before a further deal would overrun the budget, or once the best card is plain.
        if n >= config.max_samples or (
            n >= config.min_samples
            and (elapsed * (n + 1) / n > config.budget or settled(values, config.stop_z))
        ):
            break
    totals = [sum(v) for v in values]
    best = max(totals)
    # Ties are common (equivalent cards): prefer the rule-of-thumb choice among the best.
    if totals[candidates.index(fallback)] >= best - 1e-9:
        return fallback
    return candidates[totals.index(best)]


def choose_bid(obs: Observation, rng: random.Random, config: NormalConfig, ruleset: Ruleset) -> Bid:
    assert obs.seat is not None and obs.face_up is not None
    seat = obs.seat
    hand = easy.hand_mask(obs)
    face_suit = obs.face_up >> 3
    legal = [m for m in obs.legal_moves if isinstance(m, Bid)]
    round_two = easy.is_round_two(obs)
    # The same deals for every option: the comparison is then far less noisy.
    seed = rng.getrandbits(64)

    def value(kind: Call, trump: int | None) -> float:
        return contract_value(
            hand=hand,
            face_up=obs.face_up or 0,
            seat=seat,
            dealer=obs.dealer,
            scores=obs.scores,
            kind=kind,
            trump=trump,
            declarer=seat,
            bidding_round=2 if round_two else 1,
            samples=config.bid_samples,
            rng=random.Random(seed),
            ruleset=ruleset,
        )

    options: dict[Bid, float] = {}
    for move in legal:
        if move.call is Call.PASS:
            continue
        if move.call is not Call.HOKUM:
            options[move] = value(move.call, None)
        elif move.suit is not None:  # R17 choice
            options[move] = value(Call.HOKUM, move.suit)
        elif round_two:  # the suit is named later: value the best one
            options[move] = max(value(Call.HOKUM, s) for s in range(4) if s != face_suit)
        else:
            options[move] = value(Call.HOKUM, face_suit)
    best = max(options, key=lambda m: options[m])
    if Bid(Call.PASS) not in legal:
        return best
    standing = next((s for s, b in reversed(obs.calls) if b.call is not Call.PASS), None)
    threshold = PASS_VALUE_PARTNER_BID if standing == (seat + 2) % 4 else PASS_VALUE
    return best if options[best] > threshold else Bid(Call.PASS)
