"""The match as one caller may see it (``GET /matches/{id}`` and every write's answer).

``match_view_data(match, seat)`` returns data, not a body: the match row, the viewer's seat, and
for the round the engine's own ``Observation`` for that seat (``engine.observation``), the
only source of card information for a live round, so no selector can leak another seat's
cards. The API renders it with ``MatchViewSerializer``, the one definition of the body.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from games import engine
from games.engine.cards import cards_of
from games.engine.codec import LIVE_PHASES, result_to_dict
from games.engine.observation import PublicDeclaration
from games.models import Match, MatchStatus, Seat
from games.selectors.seats import is_automatic


@dataclass(frozen=True, slots=True)
class RoundView:
    """A round as one viewer sees it: what the engine lets that seat observe (``obs``), and
    what the match decides around it: who is to act now, the turn's deadline, the deck's
    commitment and the moves the caller may post."""

    obs: engine.Observation
    to_act: int | None
    deadline: datetime | None
    deck_commitment: str | None
    legal_moves: tuple[engine.Move, ...]
    projects_available: tuple[engine.Project, ...]
    projects_suggested: tuple[engine.Project, ...]

    @property
    def current_trick(self) -> engine.Observation | None:
        """The trick being played (the observation's ``leader`` and ``trick``), in play only."""
        return self.obs if self.obs.leader is not None else None

    @property
    def last_trick(self) -> engine.Trick | None:
        return self.obs.tricks[-1] if self.obs.tricks else None

    @property
    def tricks_played(self) -> int:
        return len(self.obs.tricks)


@dataclass(frozen=True, slots=True)
class FinishedRoundView:
    """A finished round, all public by now, and its deck's commitment."""

    log: engine.RoundLog
    deck_commitment: str | None
    with_sawa: bool = False  # the ruleset has Sawa: the result shows `sawa` (S25)

    @property
    def face_up(self) -> engine.Card:
        return self.log.deck[20]

    @property
    def result(self) -> dict[str, Any]:
        """The result in the record format's shape (``sawa`` only where the ruleset has it)."""
        return result_to_dict(self.log.result, with_sawa=self.with_sawa)

    @property
    def revealed_hands(self) -> tuple[tuple[engine.Card, ...], ...] | None:
        """The hands still held when a Sawa ended the round (S24), else None."""
        hands = self.log.revealed_hands
        return None if hands is None else tuple(tuple(cards_of(h)) for h in hands)


@dataclass(frozen=True, slots=True)
class MatchView:
    match: Match
    my_seat: int | None
    seats: list[Seat]
    round: RoundView | None
    previous_round: FinishedRoundView | None

    @property
    def invite_code(self) -> str | None:
        # The code is for the seated to share; an outsider never sees it.
        return (
            self.match.invite_code if self.my_seat is not None and self.match.invite_code else None
        )

    @property
    def end_reason(self) -> str | None:
        return self.match.end_reason or None


def match_view_data(match: Match, viewer: Seat | None) -> MatchView:
    """The match as ``viewer`` (a seat, or None for an outsider) may see it."""
    seats = match.seat_list()
    seat_index = viewer.index if viewer is not None else None
    state = match.load_state()
    current: RoundView | None = None
    previous: FinishedRoundView | None = None
    if state is not None:
        commitments = {int(n): digest for n, digest in match.recent_commitments.items()}
        if state.phase in LIVE_PHASES:
            current = _live_round(match, seats, state, seat_index, commitments)
            if state.history:
                log = state.history[-1]
                previous = FinishedRoundView(
                    log, commitments.get(log.number), with_sawa=state.ruleset.sawa
                )
        elif state.history:
            # A finished match shows its last round as `round` (api.md); it is all public now.
            log = state.history[-1]
            current = _final_round(log, match.target, commitments.get(log.number))
    return MatchView(match, seat_index, seats, current, previous)


def _live_round(
    match: Match,
    seats: list[Seat],
    state: engine.GameState,
    seat_index: int | None,
    commitments: dict[int, str],
) -> RoundView:
    obs = engine.observation(state, seat_index)
    commitment = commitments.get(state.round_no)
    if match.status != MatchStatus.ACTIVE:
        # Ended mid-round (resigned, adjudicated, abandoned): nobody is to move any more.
        return RoundView(obs, None, None, commitment, (), (), ())
    acting_seat = next((s for s in seats if s.index == obs.to_act), None)
    human_turn = acting_seat is not None and not is_automatic(acting_seat)
    moves = obs.legal_moves
    if moves and obs.projects_suggested:
        # api.md "Declarations": while declaring is legal, legal_moves holds the suggested
        # declaration, postable as it is, so a client that plays from legal_moves declares.
        # The engine's legal_moves leaves declarations out (they are checked when made);
        # bots and records rely on that, so the item is added here, for clients only.
        moves = (*moves, engine.Declare(projects=obs.projects_suggested))
    return RoundView(
        obs=obs,
        to_act=obs.to_act,
        deadline=match.deadline if human_turn else None,
        deck_commitment=commitment,
        legal_moves=moves,
        projects_available=obs.projects_available,
        projects_suggested=obs.projects_suggested,
    )


def _final_round(log: engine.RoundLog, target: int, commitment: str | None) -> RoundView:
    """The last round of a finished match as everyone may see it: no hands any more, every
    call, trick and declaration public."""
    result = log.result
    obs = engine.Observation(
        seat=None,
        phase=engine.Phase.FINISHED,
        round_no=log.number,
        dealer=log.dealer,
        scores=log.scores_after,
        target=target,
        face_up=log.deck[20],
        to_act=None,
        hand=(),
        card_counts=(0, 0, 0, 0),
        calls=tuple((s, m) for s, m in log.actions if isinstance(m, engine.Bid)),
        doubles=tuple((s, m) for s, m in log.actions if isinstance(m, engine.Double)),
        contract=log.contract,
        multiplier=log.multiplier,
        doubler=None,
        gahwa=log.gahwa,
        locked=log.locked,
        leader=None,
        trick=(),
        tricks=log.tricks,
        abnat=result.abnat,
        trick_counts=(
            sum(1 for t in log.tricks if t.winner % 2 == 0),
            sum(1 for t in log.tricks if t.winner % 2 == 1),
        ),
        declarations=tuple(
            PublicDeclaration(
                seat=seat, kinds=tuple(p.kind.value for p in projects), projects=projects
            )
            for seat, projects in result.declared
        ),
        baloot=result.baloot,
        legal_moves=(),
        projects_available=(),
        projects_suggested=(),
        winner=None,
        revealed_hands=FinishedRoundView(log, commitment).revealed_hands,
    )
    return RoundView(obs, None, None, commitment, (), (), ())
