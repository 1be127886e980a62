"""What has happened in a match: the public move log and the score sheet."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from games import engine
from games.engine.cards import cards_of
from games.models import Match, Move, Round, RoundStatus
from games.selectors.viewing import ViewedMatch


@dataclass(frozen=True, slots=True)
class LoggedProject:
    kind: engine.ProjectKind
    cards: tuple[engine.Card, ...] | None  # None while this viewer may not see them


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One move of the public log: who made it, when, and the move itself."""

    seq: int
    version: int
    round: int
    seat: int
    actor: str
    move: engine.Move
    created_at: datetime
    cards_hidden: bool  # a declaration whose cards this viewer may not see yet
    # A Sawa's round ended with it: the cards every seat still held, public at once (S24).
    revealed_hands: tuple[tuple[engine.Card, ...], ...] | None = None

    @property
    def projects(self) -> tuple[LoggedProject, ...]:
        if not isinstance(self.move, engine.Declare):
            return ()
        return tuple(
            LoggedProject(p.kind, None if self.cards_hidden else p.cards)
            for p in self.move.projects
        )


def move_log_entries(viewed: ViewedMatch, after: int, limit: int) -> list[LogEntry]:
    """At most ``limit`` entries of the public log after version ``after``, up to the version
    its viewer sees. A declaration's cards stay hidden from other seats until trick 1 of its
    round is complete (api.md)."""
    # Never past the version the viewer sees: an outsider's stops at their cut (selectors
    # ``spectating``), and for anyone else a move committed after the row was read waits for
    # the next read, so a page and its ``version`` agree.
    header = viewed.header
    moves = list(
        Move.objects.filter(
            match_id=header.id, version__gt=after, version__lte=header.version
        ).order_by("seq")[:limit]
    )
    state = viewed.state
    open_round = _open_round(state)
    viewer_index = viewed.seat_index
    has_sawa = any(m.payload.get("type") == "sawa" for m in moves)
    revealed = _revealed_by_round(state) if has_sawa else {}
    rules = engine.get_ruleset(header.ruleset)
    return [
        _entry(
            move,
            rules,
            cards_hidden=move.round_number == open_round and move.seat != viewer_index,
            revealed_hands=revealed.get(move.round_number),
        )
        for move in moves
    ]


def _entry(
    move: Move,
    rules: engine.Ruleset,
    *,
    cards_hidden: bool,
    revealed_hands: tuple[tuple[engine.Card, ...], ...] | None = None,
) -> LogEntry:
    """One stored move as a log entry, its declared cards hidden or shown."""
    return LogEntry(
        seq=move.seq,
        version=move.version,
        round=move.round_number,
        seat=move.seat,
        actor=move.actor,
        move=engine.move_from_dict(move.payload, rules),
        created_at=move.created_at,
        cards_hidden=cards_hidden,
        revealed_hands=revealed_hands,
    )


# A trick is complete with its fourth card: the round's fourth card play ends trick 1.
_TRICK_CARDS = 4


@dataclass(frozen=True, slots=True)
class Reveal:
    """The declarations of one round whose cards a viewer was shown hidden (made by another
    seat) and may see since ``version``: the move that completed the round's trick 1. A log
    holding any of them as read at a version before ``version`` holds them hidden; read at
    ``version`` or later, they are as ``entries`` shows them (cards and all)."""

    round: int
    version: int
    # The version of the first of these declarations: a reader who had read past it before
    # ``version`` holds at least one of them hidden.
    first: int
    entries: tuple[LogEntry, ...]


def declarations_revealed(
    viewed: ViewedMatch, after: int, until: int | None = None
) -> list[Reveal]:
    """The rounds whose trick 1 was completed by a move at a version in ``(after, until]``
    (``until`` at most ``V``, the version the viewer sees; ``V`` if not given) and that hold
    declarations by seats other than the viewer's (any seat's, for an outsider), each with
    those declarations as ``move_log_entries`` shows them at ``V``: with their cards, trick 1
    of their round being complete. Oldest first.

    The log's own rule decides at ``V`` (``_open_round``): a round whose trick 1 is not
    complete there gives nothing, so this never shows more than ``GET /moves`` would."""
    header = viewed.header
    last = header.version if until is None else min(until, header.version)
    if last <= after:
        return []
    rounds = set(
        Move.objects.filter(match_id=header.id, version__gt=after, version__lte=last).values_list(
            "round_number", flat=True
        )
    )
    if not rounds:
        return []
    viewer_index = viewed.seat_index
    rules = engine.get_ruleset(header.ruleset)
    open_round = _open_round(viewed.state)
    by_round: dict[int, list[Move]] = {}
    for move in Move.objects.filter(
        match_id=header.id, round_number__in=sorted(rounds), version__lte=header.version
    ).order_by("seq"):
        by_round.setdefault(move.round_number, []).append(move)
    out: list[Reveal] = []
    for number, moves in sorted(by_round.items()):
        if number == open_round:
            continue  # trick 1 of this round is not complete at V: nothing is public yet
        plays = 0
        declared: list[Move] = []
        completed: Move | None = None
        for move in moves:
            kind = move.payload.get("type")
            if kind == "declare" and move.seat != viewer_index:
                declared.append(move)
            elif kind == "play":
                plays += 1
                if plays == _TRICK_CARDS:
                    completed = move
                    break
        if completed is None or not after < completed.version <= last or not declared:
            continue
        entries = tuple(_entry(move, rules, cards_hidden=False) for move in declared)
        out.append(Reveal(number, completed.version, declared[0].version, entries))
    return out


def _open_round(state: engine.GameState | None) -> int | None:
    """The round whose trick 1 is not complete yet in ``state`` (its declarations' cards are
    hidden from other seats), or None."""
    if state is not None and state.phase is not engine.Phase.FINISHED and not state.tricks:
        return state.round_no
    return None


def _revealed_by_round(
    state: engine.GameState | None,
) -> dict[int, tuple[tuple[engine.Card, ...], ...]]:
    """The hands a Sawa revealed, by round number (the rounds the state's history holds)."""
    if state is None:
        return {}
    return {
        log.number: tuple(tuple(cards_of(hand)) for hand in log.revealed_hands)
        for log in state.history
        if log.revealed_hands is not None
    }


@dataclass(frozen=True, slots=True)
class ScoreSheetRow:
    """A finished round's line of the score sheet, from its stored result (the record
    format's shapes: ``contract`` and ``projects`` as the round row stores them)."""

    number: int
    dealer: int
    status: str
    contract: dict[str, Any] | None
    abnat: list[int] | None
    card_points: list[int] | None
    projects: dict[str, Any] | None
    baloot: list[int]
    kaboot: int | None
    bidder_team: int | None
    bidder_failed: bool | None
    points: list[int]
    gahwa_winner: int | None
    totals: list[int]
    # `saudi` only (S25): who called Sawa and whether it held, or None; `with_sawa` False in a
    # ruleset without Sawa, whose rows never show the key (S2).
    with_sawa: bool = False
    sawa: dict[str, Any] | None = None


def score_sheet(match: Match, after: int = 0, limit: int | None = None) -> list[ScoreSheetRow]:
    """The finished rounds numbered after ``after``, in order, at most ``limit`` of them."""
    rounds = (
        Round.objects.filter(match=match, number__gt=after)
        .exclude(status=RoundStatus.IN_PROGRESS)
        .order_by("number")
    )
    if limit is not None:
        rounds = rounds[:limit]
    with_sawa = engine.get_ruleset(match.ruleset).sawa
    rows = []
    for rnd in rounds:
        result = rnd.result or {}
        rows.append(
            ScoreSheetRow(
                number=rnd.number,
                dealer=rnd.dealer,
                status=rnd.status,
                contract=rnd.contract,
                abnat=result.get("abnat"),
                card_points=result.get("card_points"),
                projects=result.get("projects"),
                baloot=result.get("baloot", []),
                kaboot=result.get("kaboot"),
                bidder_team=result.get("bidder_team"),
                bidder_failed=result.get("bidder_failed"),
                points=result.get("points", [0, 0]),
                gahwa_winner=result.get("gahwa_winner"),
                totals=rnd.scores_after or [],  # set on every finished round
                with_sawa=with_sawa,
                sawa=result.get("sawa"),
            )
        )
    return rows
