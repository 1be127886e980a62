"""Post-game analysis: every decision of a finished match measured against the best one that
seat could have made, as the hard bot's search sees it from that seat's own observation.

A *decision* is a call in the auction (``Bid``) or a card played, wherever the seat had more
than one legal choice (a single legal card, a declaration, a Sawa and the doubling ladder are
not decisions here). Each is valued by the search the hard bot plays by, with a fixed number
of deals and a generator seeded from the match's seed, the round and the move, so the same
match always gets the same analysis:

* a card: ``bots.hard.play_values`` (the same deals for every legal card, the endgame solved
  exactly), ``play_samples_for(ruleset)`` deals (16 in gamerules, 64 in saudi);
* a call: ``bots.auction.call_values`` (the auction played on and the round scored, for every
  legal call), ``BID_SAMPLES`` deals.

A value is the expected round-score margin for the seat's team (game points, the unit of the
score sheet). The *loss* of a decision is the best value less the chosen one (0 when the
choice was the best, or as good); *accuracy* per decision is ``max(0, 1 - loss / 10)`` (a
decision that gives up 10 or more points of margin scores 0), and a player's accuracy is the
mean of theirs, as a percentage.

Like a bot, the search is handed ``observation(state, seat)`` and nothing else: it never reads
a card the seat could not see (tests/engine/test_analysis.py holds it to that).

One figure is deliberately not of that kind, and is for moderators only: a card decision's
``partner_loss``, the same search's loss for the chosen card when the partner's hand (as it
is at that moment) is pinned into every deal. A pair that sees each other's hands plays
choices that fit this evaluation better than the fair one; the fair-play signal
(``moderation.services.fairplay``) counts how often.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from .bots.auction import call_values
from .bots.hard import HardConfig, play_values
from .cards import Card
from .moves import Bid, Move, Play
from .observation import Observation, observation
from .rules import apply, new_match, start_round
from .rulesets import SAUDI, Ruleset
from .state import GameState, Phase

ALL_SEATS = (0, 1, 2, 3)
PLAY_SAMPLES = 16
# In saudi the search needs more deals a card to play better than the normal bot: on 16 it
# shows no edge over normal's 32 over 2,000 duplicate deals, on 64 it does (bench/RESULTS.md
# "Bot strength", "In saudi"). Compulsory trumping leaves fewer choices, each decided by
# smaller differences, which a few deals cannot see through.
PLAY_SAMPLES_BY_RULESET = {SAUDI.name: 64}
BID_SAMPLES = 32
# The loss at which a decision scores no accuracy at all (round-score points).
ACCURACY_SCALE = 10.0


def play_samples_for(ruleset: Ruleset) -> int:
    """Deals per card decision for an analysis in this ruleset."""
    return PLAY_SAMPLES_BY_RULESET.get(ruleset.name, PLAY_SAMPLES)


def accuracy_of(loss: float) -> float:
    """A decision's accuracy, 0 to 1, from its loss (the module docstring)."""
    return max(0.0, 1.0 - loss / ACCURACY_SCALE)


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of one seat, valued."""

    round: int  # the round's number, from 1
    action: int  # the move's index in the round, from 0
    seat: int
    chosen: Move
    best: Move
    chosen_value: float
    best_value: float
    options: int  # legal choices it was made among
    # A card's loss by the search that knows the partner's hand (None for a call).
    partner_loss: float | None = None
    # The trick a card was played to, from 1 (None for a call).
    trick: int | None = None

    @property
    def loss(self) -> float:
        return max(0.0, self.best_value - self.chosen_value)

    @property
    def accuracy(self) -> float:
        return accuracy_of(self.loss)


Round = tuple[Sequence[Card], Iterable[tuple[int, Move]]]  # (deck, (seat, move) in order)


def analyse_match(
    ruleset: Ruleset,
    rounds: Iterable[Round],
    *,
    seed: str,
    dealer: int = 0,
    target: int | None = None,
    play_samples: int | None = None,
    bid_samples: int = BID_SAMPLES,
    partner_seats: Collection[int] = ALL_SEATS,
) -> list[Decision]:
    """Every decision of the match played as ``rounds`` from a new match with these options,
    in the order they were made, each card valued on ``play_samples`` deals (by default
    ``play_samples_for(ruleset)``). ``partner_loss`` is valued for the cards of
    ``partner_seats`` only: it doubles their cost, so the service asks it where a person
    partners a person, and ``bench.analysis_levels``, which only ranks play, not at all."""
    if play_samples is None:
        play_samples = play_samples_for(ruleset)
    state = new_match(ruleset, dealer=dealer, target=target)
    decisions: list[Decision] = []
    for number, (deck, actions) in enumerate(rounds, start=1):
        state = start_round(state, tuple(deck))
        for index, (seat, move) in enumerate(actions):
            found = _decision(
                state,
                seat,
                move,
                ruleset,
                f"{seed}/{number}/{index}",
                play_samples,
                bid_samples,
                seat in partner_seats,
            )
            if found is not None:
                best, chosen_value, best_value, options, partner_loss = found
                trick = len(state.tricks) + 1 if isinstance(move, Play) else None
                decisions.append(
                    Decision(
                        number,
                        index,
                        seat,
                        move,
                        best,
                        chosen_value,
                        best_value,
                        options,
                        partner_loss,
                        trick,
                    )
                )
            state = apply(state, seat, move)
    return decisions


def _decision(
    state: GameState,
    seat: int,
    move: Move,
    ruleset: Ruleset,
    seed: str,
    play_samples: int,
    bid_samples: int,
    partner: bool = True,
) -> tuple[Move, float, float, int, float | None] | None:
    """(the best move, the chosen move's value, the best value, the number of options, the
    loss knowing the partner's hand) when ``move`` was a decision; None otherwise."""
    partner_loss: float | None = None
    if state.phase is Phase.PLAYING and isinstance(move, Play):
        obs = observation(state, seat)
        options: list[Move] = [m for m in obs.legal_moves if isinstance(m, Play)]
        if len(options) < 2 or move not in options:
            return None
        # The search's own settings but a fixed number of deals: reproducible.
        config = HardConfig(samples=play_samples)
        values = play_values(obs, random.Random(seed), config, ruleset)
        if partner:
            mate = (seat + 2) % 4
            partner_loss = _partner_loss(
                obs, {mate: state.hands[mate]}, move, options, ruleset, seed, config
            )
    elif state.phase is Phase.BIDDING and isinstance(move, Bid):
        obs = observation(state, seat)
        bids = [m for m in obs.legal_moves if isinstance(m, Bid)]
        if len(bids) < 2 or move not in bids:
            return None
        options = list(bids)
        values = call_values(
            obs, bids, random.Random(seed), ruleset, samples=bid_samples, budget=0.0
        )
    else:
        return None
    best_value = max(values)
    chosen_value = values[options.index(move)]
    best = move if chosen_value >= best_value else options[values.index(best_value)]
    return best, chosen_value, best_value, len(options), partner_loss


def _partner_loss(
    obs: Observation,
    revealed: dict[int, int],
    move: Move,
    options: Sequence[Move],
    ruleset: Ruleset,
    seed: str,
    config: HardConfig,
) -> float | None:
    """The moderators' counterfactual: the chosen card's loss with the partner's hand
    (``revealed``: seat -> the cards it holds now) pinned into every deal (deals of its
    own). None if no deal fits that (the inference ruled out a real holding): a figure for
    moderators must never cost the players their analysis."""
    try:
        knowing = play_values(obs, random.Random(f"{seed}/partner"), config, ruleset, revealed)
    except ValueError:
        return None
    return max(0.0, max(knowing) - knowing[list(options).index(move)])
