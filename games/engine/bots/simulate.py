"""Fast playouts of a determinized round, scored exactly as the engine scores it.

A playout does not go through ``state.apply`` (which makes a state per card); it replays
R26-R28 on plain ints with the engine's own legal-card masks, closes tricks with the engine's
``close_trick`` and hands the final abnat and trick counts to the engine's ``score_state``
(R33-R43). Once few cards are left the rest is not rolled out but solved exactly
(``endgame.Endgame``). The value of
a playout is the round-score margin for one team; a Gahwa round, which decides the match, is
worth ``GAHWA_MARGIN``.
"""

from __future__ import annotations

from ..cards import Card
from ..play import NO_TRUMP, TRICK_RANK, VALUES, scored_trick
from ..rules import score_state
from ..state import GameState
from .endgame import Endgame
from .policy import heuristic_card

GAHWA_MARGIN = 100.0
# With this many cards left in all hands, search exactly instead of rolling out (3 tricks).
ENDGAME_CARDS = 12


class Playout:
    """Playouts and the endgame search for one determinized state, valued for ``team``."""

    def __init__(self, state: GameState, team: int, endgame_cards: int = ENDGAME_CARDS) -> None:
        contract = state.contract
        assert contract is not None
        self.state = state
        self.team = team
        self.endgame_cards = endgame_cards
        self.trump = contract.trump
        self.locked = state.locked
        self.compulsory = state.ruleset.compulsory_trumping  # S5-S7 in a saudi round
        self.bidder_team = contract.bidder_team
        self._memo: dict[tuple[int, int, bool, bool], float] = {}
        self._endgame: Endgame | None = None
        row = NO_TRUMP if self.trump is None else self.trump
        self._rank = TRICK_RANK[row]
        self._values = VALUES[row]
        played = 0  # every card played so far this round, the current trick's too
        for done_trick in state.tricks:
            for c in done_trick.cards:
                played |= 1 << c
        for c in state.trick:
            played |= 1 << c
        self._played = played

    def margin(self, abnat: tuple[int, int], counts: tuple[int, int]) -> float:
        key = (abnat[0], abnat[1], counts[0] == 0, counts[1] == 0)
        cached = self._memo.get(key)
        if cached is not None:
            return cached
        result = score_state(self.state, abnat, counts)
        if result.gahwa_winner is not None:
            value = GAHWA_MARGIN if result.gahwa_winner == self.team else -GAHWA_MARGIN
        else:
            value = float(result.points[self.team] - result.points[1 - self.team])
        self._memo[key] = value
        return value

    def value(self) -> float:
        """The margin of playing the round out from the state as it is."""
        s = self.state
        played = self._played
        return self._rollout(
            list(s.hands),
            s.leader,
            list(s.trick),
            len(s.tricks),
            list(s.abnat),
            list(s.trick_counts),
            played,
        )

    def evaluate(self, card: Card) -> float:
        """The margin after the seat to act plays ``card`` and the round is finished."""
        s = self.state
        hands = list(s.hands)
        played = self._played
        abnat = list(s.abnat)
        counts = list(s.trick_counts)
        seat = (s.leader + len(s.trick)) % 4
        hands[seat] &= ~(1 << card)
        played |= 1 << card
        trick = [*s.trick, card]
        leader = s.leader
        done = len(s.tricks)
        if len(trick) == 4:
            leader = self._close(trick, leader, done, abnat, counts)
            trick = []
            done += 1
        if sum(h.bit_count() for h in hands) <= self.endgame_cards:
            if self._endgame is None:  # one per deal: its table serves every candidate card
                self._endgame = Endgame(
                    self.trump, self.locked, self.compulsory, self.team, self.margin
                )
            return self._endgame.value(
                hands, leader, trick, done, (abnat[0], abnat[1]), (counts[0], counts[1])
            )
        return self._rollout(hands, leader, trick, done, abnat, counts, played)

    def _close(
        self, trick: list[Card], leader: int, done: int, abnat: list[int], counts: list[int]
    ) -> int:
        """Score a complete trick into ``abnat``/``counts``; return its winner."""
        winner, points = scored_trick(trick, leader, done, self.trump, self._rank, self._values)
        abnat[winner & 1] += points
        counts[winner & 1] += 1
        return winner

    def _rollout(
        self,
        hands: list[int],
        leader: int,
        trick: list[Card],
        done: int,
        abnat: list[int],
        counts: list[int],
        played: int,
    ) -> float:
        trump, locked, bidder = self.trump, self.locked, self.bidder_team
        while done < 8:
            seat = (leader + len(trick)) % 4
            card = heuristic_card(
                hands[seat],
                tuple(trick),
                seat,
                trump,
                locked,
                played,
                bidder,
                compulsory=self.compulsory,
            )
            hands[seat] &= ~(1 << card)
            played |= 1 << card
            trick.append(card)
            if len(trick) == 4:
                leader = self._close(trick, leader, done, abnat, counts)
                trick = []
                done += 1
        return self.margin((abnat[0], abnat[1]), (counts[0], counts[1]))
