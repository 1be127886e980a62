"""Simulated populations for the fair-play signals (issue 28, ``make bench-fairplay``): bot
matches whose every decision is analysed as a finished match is, kept per seat.

Three kinds of seat:

* honest: a bot of some level playing from its own observation, as every bot does;
* ``peek``: a pair that sees each other's hands, playing each card by the hard bot's search
  with the partner's current hand pinned into every deal (it bids and doubles as the hard bot);
* ``engine``: the hard bot posing as a person at a table of others.

A match's seats and their records are what the signals read from the stored analyses
(``moderation.fairplay``): per seat, each decision's loss, its loss knowing the partner's
hand, and whether it was a card or a call.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from games.engine import analysis, get_ruleset
from games.engine.bots import HardConfig, NormalConfig, choose_move
from games.engine.bots.hard import play_values
from games.engine.moves import Move, Play
from games.engine.observation import observation
from games.engine.rules import apply, new_match, start_round, to_act
from games.engine.rulesets import Ruleset
from games.engine.selfplay import shuffled_deck
from games.engine.state import GameState, Phase

# The bots' search sizes in the simulation: fixed (a loaded machine does not change the
# play), and small enough for a bench. The hard bot's production budget is larger, which
# only makes it more like the analyst: these figures are the conservative side.
HARD_PLAY = HardConfig(samples=16, bid_samples=16, double_samples=16)
NORMAL_PLAY = NormalConfig(samples=32)
# The hard bot posing as a person searches more deals a card than its honest self-play here
# (its production budget is a second a decision: hundreds of deals), so that it plays as the
# engine a cheat would consult; ``--engine-samples`` sets it.
ENGINE_SAMPLES = 64

# How a seat decides, given the whole state (only ``peek`` reads more than its observation).
SeatPlayer = Callable[[GameState, int, random.Random], Move]


def honest(level: str, ruleset: Ruleset) -> SeatPlayer:
    bot = functools.partial(
        choose_move, level, normal_config=NORMAL_PLAY, hard_config=HARD_PLAY, ruleset=ruleset
    )

    def play(state: GameState, seat: int, rng: random.Random) -> Move:
        return bot(observation(state, seat), rng)

    return play


def peeking(ruleset: Ruleset) -> SeatPlayer:
    """The hard bot, but every card chosen as if the partner's hand were face up."""
    fair = honest("hard", ruleset)

    def play(state: GameState, seat: int, rng: random.Random) -> Move:
        obs = observation(state, seat)
        cards = [m for m in obs.legal_moves if isinstance(m, Play)]
        if state.phase is not Phase.PLAYING or len(cards) < 2 or obs.projects_suggested:
            return fair(state, seat, rng)
        partner = (seat + 2) % 4
        values = play_values(obs, rng, HARD_PLAY, ruleset, {partner: state.hands[partner]})
        return cards[values.index(max(values))]

    return play


def engine(ruleset: Ruleset, samples: int) -> SeatPlayer:
    config = HardConfig(samples=samples, bid_samples=16, double_samples=16)
    bot = functools.partial(choose_move, "hard", hard_config=config, ruleset=ruleset)

    def play(state: GameState, seat: int, rng: random.Random) -> Move:
        return bot(observation(state, seat), rng)

    return play


def player_for(kind: str, ruleset: Ruleset, engine_samples: int = ENGINE_SAMPLES) -> SeatPlayer:
    if kind == "peek":
        return peeking(ruleset)
    if kind == "engine":
        return engine(ruleset, engine_samples)
    return honest(kind, ruleset)


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """One seat of one simulated match, as the signals see it."""

    match: int
    seat: int
    kind: str  # a bot level, "peek" or "engine"
    # Per decision: (loss, loss knowing the partner's hand, trick), the last two None for a call.
    decisions: tuple[tuple[float, float | None, int | None], ...]


def play_and_analyse(
    seed: int,
    kinds: Sequence[str],
    ruleset_name: str = "gamerules",
    target: int | None = None,
    engine_samples: int = ENGINE_SAMPLES,
) -> list[SeatRecord]:
    """Play the match of ``seed`` with ``kinds[seat]`` at each seat, analyse it as the service
    does, and return each seat's decisions."""
    ruleset = get_ruleset(ruleset_name)
    players = [player_for(k, ruleset, engine_samples) for k in kinds]
    rng = random.Random(seed)
    state = new_match(ruleset, dealer=rng.randrange(4), target=target)
    while state.phase is not Phase.FINISHED:
        if state.phase is Phase.DEAL:
            state = start_round(state, shuffled_deck(rng))
            continue
        seat = to_act(state)
        assert seat is not None
        state = apply(state, seat, players[seat](state, seat, rng))
    found = analysis.analyse_match(
        ruleset,
        [(log.deck, log.actions) for log in state.history],
        seed=f"fairplay/{seed}",
        dealer=state.history[0].dealer,
        target=target,
    )
    return [
        SeatRecord(
            match=seed,
            seat=seat,
            kind=kinds[seat],
            decisions=tuple((d.loss, d.partner_loss, d.trick) for d in found if d.seat == seat),
        )
        for seat in range(4)
    ]
