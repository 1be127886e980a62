"""One round replayed step by step for the admin's replay viewer (staff only, like the match
page: every hand is shown, and the stock while the bidding lasts).

A frame is the table after one step: the deal, then each logged move in order. Every frame is
read back from the state the engine's own ``apply`` makes from the state before, so no rule is
restated here: who took a trick, what it was worth, the contract, the projects and the result
are the engine's. Frames are plain JSON, embedded in the viewer's page for its script to draw;
the tests hold the page to them and them to the engine.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import engine
from games.admin.pages import move_text, sawa_text
from games.engine.cards import card_names, card_str, cards_of, parse_card
from games.engine.codec.moves import move_to_dict, project_to_dict
from games.engine.codec.record_format import contract_to_dict, result_to_dict
from games.engine.scoring import RoundResult
from games.models import AnalysisStatus, Match, MatchAnalysis, Move, Round, RoundStatus
from games.selectors.labels import ROUND_STATUSES, SCORE_SHEET_COLUMNS, contract_text
from games.selectors.seats import seat_display_name

Payload = dict[str, Any]
Frame = dict[str, Any]

# The analysis of a match that has none (it opens when the match ends).
NO_ANALYSIS = "none"

_LIVE = (engine.Phase.BIDDING, engine.Phase.DOUBLING, engine.Phase.PLAYING)

# Where each seat sits on the viewer's table: seat 0 at the bottom and the next seat to its
# right (R2: play passes to the right), as the player of seat 0 would see it.
TABLE_POSITIONS = ("south", "east", "north", "west")
TEAMS = (_("Team 0 (seats 0 and 2)"), _("Team 1 (seats 1 and 3)"))


@dataclass(frozen=True, slots=True)
class Replay:
    """A round's frames, and where its log stopped replaying (``None`` when all of it did)."""

    frames: list[Frame]
    refused: str | None


@dataclass(frozen=True, slots=True)
class _Table:
    """What one frame shows, read from a state in play or from a finished round's log."""

    phase: str
    to_act: int | None
    hands: tuple[int, int, int, int]
    stock: tuple[engine.Card, ...]  # the face-up card first; empty once the bidding is over
    leader: int | None
    trick: tuple[engine.Card, ...]
    tricks: tuple[engine.Trick, ...]
    actions: tuple[tuple[int, engine.Move], ...]
    contract: dict[str, Any] | None
    declarations: tuple[tuple[int, tuple[engine.Project, ...]], ...]
    baloot: tuple[int, ...]
    abnat: tuple[int, int]
    result: RoundResult | None = None
    scores_after: tuple[int, int] | None = None
    with_sawa: bool = False


def replay_page(match: Match, rnd: Round) -> dict[str, Any]:
    """Context for the viewer's page (staff only): the round's replay, how to draw its
    seats, and the rounds either side of it."""
    numbers = list(
        Round.objects.filter(match=match).order_by("number").values_list("number", flat=True)
    )
    replay = round_replay(match, rnd)
    teams = [str(team) for team in TEAMS]
    return {
        "title": gettext("Replay of round %(number)s") % {"number": rnd.number},
        "match": match,
        "rnd": rnd,
        "status_label": ROUND_STATUSES.get(rnd.status, rnd.status),
        "in_progress": rnd.status == RoundStatus.IN_PROGRESS,
        "replay": replay,
        "columns": SCORE_SHEET_COLUMNS,
        "team_labels": teams,
        "seat_boxes": [
            {**seat, "position": TABLE_POSITIONS[seat["seat"]], "team_label": teams[seat["team"]]}
            for seat in replay["seats"]
        ],
        "previous_round": max((n for n in numbers if n < rnd.number), default=None),
        "next_round": min((n for n in numbers if n > rnd.number), default=None),
    }


def round_replay(match: Match, rnd: Round) -> dict[str, Any]:
    """The viewer's data for one round of ``match``: its seats, the analysis' status and a
    frame per step. A round still in play replays up to its last logged move."""
    moves = Move.objects.filter(match=match, round_number=rnd.number).order_by("seq")
    status, decisions = round_decisions(match, rnd.number)
    replay = replay_frames(
        ruleset=match.ruleset,
        dealer=rnd.dealer,
        scores=_totals(rnd.scores_before),
        target=match.target,
        deck=rnd.deck,
        moves=[(m.seat, m.payload) for m in moves],
        decisions=decisions,
    )
    return {
        "match": match.pk,
        "round": rnd.number,
        "ruleset": match.ruleset,
        "dealer": rnd.dealer,
        "status": rnd.status,
        "seats": [
            {"seat": s.index, "name": seat_display_name(s) or "-", "team": s.team}
            for s in match.seat_list()
        ],
        "analysis": status,
        "refused": replay.refused,
        "frames": replay.frames,
    }


def _totals(stored: Sequence[int] | None) -> tuple[int, int]:
    """The match totals a round started from, as its row keeps them (none: a new match)."""
    return (int(stored[0]), int(stored[1])) if stored else (0, 0)


def round_decisions(match: Match, number: int) -> tuple[str, dict[int, list[Any]]]:
    """The analysis' status and, once it is ready, round ``number``'s valued decisions by
    their move's index in the round's log (``MatchAnalysis.decisions`` says the shape)."""
    row = MatchAnalysis.objects.filter(match=match).first()
    if row is None:
        return NO_ANALYSIS, {}
    if row.status != AnalysisStatus.READY:
        return str(row.status), {}
    return str(row.status), {d[1]: d for d in row.decisions if d[0] == number}


def replay_frames(
    *,
    ruleset: str,
    dealer: int,
    scores: tuple[int, int],
    target: int,
    deck: Sequence[str],
    moves: Sequence[tuple[int, Payload]],
    decisions: Mapping[int, Sequence[Any]] | None = None,
) -> Replay:
    """A frame for the deal and for each (seat, payload) of ``moves``, made with the engine's
    ``apply`` one move at a time. A move the engine refuses (only a damaged log has one) ends
    the frames there, and ``refused`` says which and why, as the match page shows what
    replays rather than nothing."""
    rules = engine.get_ruleset(ruleset)
    before = engine.new_match(rules, dealer=dealer, scores=scores, target=target)
    state = engine.start_round(before, [parse_card(c) for c in deck])
    table = _live(state)
    frames = [_frame(0, None, None, table, closed=False, scores=scores)]
    for index, (seat, payload) in enumerate(moves):
        try:
            move = engine.move_from_dict(payload, rules)
            state = engine.apply(state, seat, move)
        except engine.EngineError as error:
            return Replay(frames, f"move {index}: {error.code}: {error.message}")
        after = _live(state) if state.phase in _LIVE else _finished(state, _held(table, move))
        # A fourth card closes its trick, which the state has already put away: the frame
        # still shows it on the table, with its winner.
        closed = isinstance(move, engine.Play) and len(after.tricks) > len(table.tricks)
        stored = (decisions or {}).get(index)
        decision = _decision(stored) if stored is not None else None
        frames.append(
            _frame(index + 1, seat, payload, after, closed=closed, scores=scores, decision=decision)
        )
        table = after
    return Replay(frames, None)


def _live(state: engine.GameState) -> _Table:
    bidding = state.phase is engine.Phase.BIDDING
    contract = None
    if not bidding:
        contract = contract_to_dict(state.contract, state.multiplier, state.gahwa, state.locked)
    # R32: Baloot shows once its holder has played the second of the trump K and Q.
    baloot = state.baloot_seat if state.baloot_announced else None
    return _Table(
        phase=state.phase.value,
        to_act=engine.to_act(state),
        hands=state.hands,
        stock=state.deck[20:] if bidding else (),  # R8: D[20] face up, D[21..31] the stock
        leader=state.leader if state.phase is engine.Phase.PLAYING else None,
        trick=state.trick,
        tricks=state.tricks,
        actions=state.actions,
        contract=contract,
        declarations=state.declarations,
        baloot=() if baloot is None else (baloot,),
        abnat=state.abnat,
    )


def _held(table: _Table, move: engine.Move) -> tuple[int, int, int, int]:
    """The hands after ``move`` ended a round whose log does not list them: those before it,
    less the card it played (none left after trick 8; all of them after a redeal's pass)."""
    if not isinstance(move, engine.Play):
        return table.hands
    gone = ~(1 << move.card)
    h0, h1, h2, h3 = table.hands
    return (h0 & gone, h1 & gone, h2 & gone, h3 & gone)


def _finished(state: engine.GameState, held: tuple[int, int, int, int]) -> _Table:
    """The round ``state`` has just closed, from its log (the state itself is already waiting
    for the next deal): S21's revealed hands after a Sawa, else ``held``."""
    log = state.history[-1]
    redeal = log.status is engine.RoundStatus.REDEAL
    return _Table(
        phase=log.status.value,
        to_act=None,
        hands=log.revealed_hands if log.revealed_hands is not None else held,
        stock=log.deck[20:] if redeal else (),
        leader=None,
        trick=(),
        tricks=log.tricks,
        actions=log.actions,
        contract=contract_to_dict(log.contract, log.multiplier, log.gahwa, log.locked),
        declarations=log.result.declared,
        baloot=log.result.baloot,
        abnat=log.result.abnat,
        result=log.result,
        scores_after=log.scores_after,
        with_sawa=state.ruleset.sawa,
    )


def _frame(
    step: int,
    seat: int | None,
    payload: Payload | None,
    table: _Table,
    *,
    closed: bool,
    scores: tuple[int, int],
    decision: dict[str, Any] | None = None,
) -> Frame:
    # Who played each card is read from the log: the seats of its plays, in order.
    players = [s for s, m in table.actions if isinstance(m, engine.Play)]
    tricks = _tricks_json(table.tricks, players)
    if closed:
        trick = {**tricks[-1], "closed": True}
    else:
        done = sum(len(t.cards) for t in table.tricks)
        trick = {
            "number": len(table.tricks) + 1,
            "leader": table.leader,
            "cards": _cards_json(players[done:], table.trick),
            "winner": None,
            "abnat": None,
            "closed": False,
        }
    return {
        "step": step,
        "action": None if step == 0 else step - 1,
        "seat": seat,
        "move": "" if payload is None else move_text(payload),
        "phase": table.phase,
        "to_act": table.to_act,
        "hands": [card_names(cards_of(h)) for h in table.hands],
        "face_up": card_str(table.stock[0]) if table.stock else None,
        "stock": [card_str(c) for c in table.stock[1:]],
        "trick": trick,
        "tricks": tricks,
        "calls": [
            {"seat": s, "text": move_text(move_to_dict(m))}
            for s, m in table.actions
            if isinstance(m, engine.Bid | engine.Double)
        ],
        "contract": contract_text(table.contract) if table.contract else None,
        "projects": [
            {"seat": s, "text": _projects_text(projects)} for s, projects in table.declarations
        ],
        "baloot": list(table.baloot),
        "score": _score_json(table, scores),
        "end": _end_text(table),
        "decision": decision,
    }


def _tricks_json(tricks: Sequence[engine.Trick], players: list[int]) -> list[dict[str, Any]]:
    """Each finished trick as the engine closed it, with the seat of each card."""
    out = []
    start = 0
    for number, trick in enumerate(tricks, 1):
        seats = players[start : start + len(trick.cards)]
        start += len(trick.cards)
        out.append(
            {
                "number": number,
                "leader": trick.leader,
                "cards": _cards_json(seats, trick.cards),
                "winner": trick.winner,
                "abnat": trick.abnat,
            }
        )
    return out


def _cards_json(seats: Sequence[int], cards: Sequence[engine.Card]) -> list[dict[str, Any]]:
    # The cards are the engine's, the seats the log's; they pair off one for one (strict).
    return [{"seat": s, "card": card_str(c)} for s, c in zip(seats, cards, strict=True)]


def _projects_text(projects: Sequence[engine.Project]) -> str:
    return ", ".join(
        f"{p['kind']} ({' '.join(p['cards'])})" for p in (project_to_dict(x) for x in projects)
    )


def _score_json(table: _Table, scores: tuple[int, int]) -> dict[str, Any]:
    """The score line: abnat taken so far, then, once the round is over, its result (card and
    project points, what it adds) and the match totals after it."""
    result = None
    if table.result is not None:
        result = result_to_dict(table.result, with_sawa=table.with_sawa)
    return {
        "abnat": list(table.abnat),
        "card_points": result["card_points"] if result else None,
        "project_points": result["projects"]["points"] if result else None,
        "points": result["points"] if result else None,
        "bidder_failed": result["bidder_failed"] if result else None,
        "kaboot": result["kaboot"] if result else None,
        "before": list(scores),
        "after": list(table.scores_after) if table.scores_after is not None else None,
    }


def _end_text(table: _Table) -> str:
    """How a finished round ended, in the reader's language ("" while it is being played)."""
    if table.result is None:
        return ""
    status = str(ROUND_STATUSES.get(table.phase, table.phase))
    sawa = table.result.sawa
    claim = sawa_text({"seat": sawa.seat, "valid": sawa.valid} if sawa is not None else None)
    return f"{status} · {claim}" if claim else status


def _decision(stored: Sequence[Any]) -> dict[str, Any]:
    """A valued decision as the viewer shows it; the loss is the analysis' own
    (``games.selectors.analysis``): what the best move was worth beyond the one chosen."""
    # The first nine figures; an analysis may store more after them, which this leaves alone.
    _number, _action, seat, kind, chosen, best, chosen_value, best_value, options = stored[:9]
    return {
        "seat": seat,
        "kind": kind,
        "chosen": move_text(chosen),
        "best": move_text(best),
        "chosen_value": round(chosen_value, 3),
        "best_value": round(best_value, 3),
        "loss": round(max(0.0, best_value - chosen_value), 3),
        "options": options,
    }
