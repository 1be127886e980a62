"""What every viewer's render takes: the match as one viewer sees it, a small immutable value.

A seated player sees the match as it is now, from their seat; an outsider sees an active public
match at the spectator's cut, one complete trick behind (``spectating``), and any other match as
it is. Either way the selectors build one ``ViewedMatch`` (the match's header at the viewer's
cut, the engine state at that cut, the seats and the viewer's seat) and every render reads that
and nothing else: the match view (``views``), the move log (``logs``), the ETag, the match
stream (``live.renders``). A list's row takes the header alone (``MatchHeader``, ``lists``).

Nothing here changes or copies the model row: the row is read, the value is made from it. So
the view, the log and the stream of one viewer agree by construction (they read the same
header), and nothing can tell an outsider that something happened after the cut, nor be saved.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from accounts.models import User
from games import engine
from games.models import Match, MatchStatus, Seat
from games.selectors.seats import match_for_viewer
from games.selectors.spectating import (
    LIVE_PHASES,
    cut_move,
    cut_moves,
    cut_to_act,
    round_cut,
    visible_actions,
)


@dataclass(frozen=True, slots=True)
class MatchHeader:
    """The match row's facts as one viewer sees them. The first group never lags; the second
    is the viewer's cut: for an outsider of an active match, the version, move count, seat to
    act and time of the last move they may see, and no deadline (the clock running now belongs
    to a turn they cannot see); for anyone else, the row's own."""

    id: int
    status: str
    ruleset: str
    rules_version: int
    target: int
    turn_seconds: int
    visibility: str
    rated: bool
    scores: tuple[int, int]
    winner_team: int | None
    end_reason: str
    created_at: datetime
    started_at: datetime | None

    version: int
    move_count: int
    to_act: int | None
    updated_at: datetime
    # Shown to a seated player only (and to them only on their own human turn).
    deadline: datetime | None
    # The row's real version, whatever the cut: what a stream compares its periodic re-check
    # with, so that it re-reads only when the match moved on, not while the cut stays behind.
    live_version: int


@dataclass(frozen=True, slots=True)
class ViewedMatch:
    """The match as one viewer (``seat``; None: an outsider) sees it: the header at their cut,
    the engine state at that cut (None before the match starts), the four seats as read (rows
    nothing here writes to), and what only the seated are shown (the invite code). The
    commitments are (round number, digest) pairs, those of the current and the previous
    round, kept on the row so that a view needs no query on rounds."""

    header: MatchHeader
    seats: tuple[Seat, ...]
    seat: Seat | None
    state: engine.GameState | None
    invite_code: str | None
    commitments: tuple[tuple[int, str], ...]

    @property
    def seat_index(self) -> int | None:
        return self.seat.index if self.seat is not None else None


def match_header(match: Match, *, seated: bool) -> MatchHeader:
    """The row's header as it is now (the deadline for the seated only)."""
    return MatchHeader(
        id=match.pk,
        status=match.status,
        ruleset=match.ruleset,
        rules_version=match.rules_version,
        target=match.target,
        turn_seconds=match.turn_seconds,
        visibility=match.visibility,
        rated=match.rated,
        scores=(match.score_team0, match.score_team1),
        winner_team=match.winner_team,
        end_reason=match.end_reason,
        created_at=match.created_at,
        started_at=match.started_at,
        version=match.version,
        move_count=match.move_count,
        to_act=match.to_act,
        updated_at=match.updated_at,
        deadline=match.deadline if seated else None,
        live_version=match.version,
    )


def _at_cut(
    header: MatchHeader,
    match: Match,
    seq: int,
    row: tuple[int, datetime] | None,
    to_act: int | None,
) -> MatchHeader:
    """``header`` moved back to the cut, the ``seq``-th move of the match (0: none yet), whose
    (version, created_at) is ``row``."""
    if row is None:  # pragma: no cover - the log holds every move the state replays
        raise RuntimeError(f"match {match.pk} has no move {seq}")
    version, created_at = row
    if seq <= 0:
        # Nothing of the match to show yet: the version before its first move.
        version, created_at = version - 1, match.started_at or match.created_at
    return replace(
        header, version=version, move_count=max(seq, 0), to_act=to_act, updated_at=created_at
    )


def viewed_match(match: Match, seat: Seat | None) -> ViewedMatch:
    """``match`` as ``seat`` (None: an outsider) sees it: the seated now, an outsider of an
    active match at the spectator's cut (a replay of the round to the cut, and one query for
    the cut's move when it is behind)."""
    seated = seat is not None
    header = match_header(match, seated=seated)
    state = match.load_state()
    # Only an outsider's sight of a round being played can lag (``spectating``).
    lags = not seated and match.status == MatchStatus.ACTIVE
    if lags and state is not None and state.phase in LIVE_PHASES:
        cut = round_cut(state)
        hidden = len(state.actions) - cut.actions
        if hidden:
            seq = match.move_count - hidden  # the last visible move (0: none in the match)
            row = cut_move(match.pk, seq)
            header = _at_cut(header, match, seq, row, engine.to_act(cut.state))
            state = cut.state
    commitments = tuple(
        sorted((int(n), str(digest)) for n, digest in match.recent_commitments.items())
    )
    return ViewedMatch(
        header=header,
        seats=tuple(match.seat_list()),
        seat=seat,
        state=state,
        # The code is for the seated to share; an outsider never sees it.
        invite_code=(match.invite_code or None) if seated else None,
        commitments=commitments,
    )


def viewed_match_for(match_id: int, user: User) -> ViewedMatch:
    """The match as ``user`` sees it (``match_for_viewer``'s rule: a private match is 404 to
    anyone not seated)."""
    match, seat = match_for_viewer(match_id, user)
    return viewed_match(match, seat)


def outsider_headers(matches: Sequence[Match]) -> list[MatchHeader]:
    """The headers of ``matches`` as an outsider sees them in a list (``GET /matches/live``,
    the other lists): each active one's at the cut, from one query for all their cut moves and
    no replay (``cut_to_act``)."""
    headers = [match_header(match, seated=False) for match in matches]
    behind: dict[int, tuple[int, int | None]] = {}
    for i, match in enumerate(matches):
        if match.status != MatchStatus.ACTIVE:
            continue
        state = match.load_state()
        if state is None or state.phase not in LIVE_PHASES:
            continue
        visible = visible_actions(state)
        hidden = len(state.actions) - visible
        if hidden:
            behind[i] = (match.move_count - hidden, cut_to_act(state, visible))
    if behind:
        found = cut_moves([(matches[i].pk, seq) for i, (seq, _) in behind.items()])
        for i, (seq, to_act) in behind.items():
            match = matches[i]
            headers[i] = _at_cut(headers[i], match, seq, found.get((match.pk, seq)), to_act)
    return headers
