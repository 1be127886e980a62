"""Every conversion between engine values and JSON-shaped dicts, in one place.

Two families live here:

* the record-format shapes (record-format.md): moves, projects, contracts, tricks, round
  results, finished and live rounds, and the observation the API renders. Their key order is
  part of the byte-for-byte contract of records and of ``python -m games.engine replay``;
* the versioned snapshot of a whole ``GameState`` (``state_to_snapshot`` /
  ``state_from_snapshot``), which the Django layer stores instead of a pickle: it names fields
  explicitly, so it survives a change of class layout, and it round-trips exactly.

Nothing else defines or re-exports them: callers import them from here (or the package).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import fields
from enum import StrEnum
from typing import Any, TypeVar

from .bidding import Bidding, Contract, Ladder, Mode, Rung, Stage
from .cards import Card, card_names, card_str, cards_of, parse_card, parse_suit, suit_str
from .errors import MalformedMove
from .moves import (
    BIDS,
    PLAYS,
    Bid,
    Call,
    Declare,
    Double,
    DoubleCall,
    Move,
    MoveType,
    Play,
    Project,
    ProjectKind,
    Sawa,
)
from .observation import Observation
from .rulesets import GAMERULES, RULESETS, Ruleset
from .scoring import RoundResult, SawaClaim
from .state import GameState, Phase, RoundLog, RoundStatus, Trick, legal_moves, to_act

LIVE_PHASES = (Phase.BIDDING, Phase.DOUBLING, Phase.PLAYING)

# --- Moves and projects (record-format.md "actions") ------------------------------------------


def project_to_dict(project: Project) -> dict[str, Any]:
    return {"kind": project.kind.value, "cards": card_names(project.cards)}


def move_to_dict(move: Move) -> dict[str, Any]:
    """The record-format action for ``move``, without ``seat``."""
    if isinstance(move, Play):
        return {"type": "play", "card": card_str(move.card)}
    if isinstance(move, Bid):
        out: dict[str, Any] = {"type": "bid", "call": move.call.value}
        if move.suit is not None:
            out["suit"] = suit_str(move.suit)
        return out
    if isinstance(move, Double):
        if move.locked is None:
            return {"type": "double", "call": move.call.value}
        return {"type": "double", "call": move.call.value, "locked": move.locked}  # S11
    if isinstance(move, Sawa):
        return {"type": "sawa"}
    return {"type": "declare", "projects": [project_to_dict(p) for p in move.projects]}


_E = TypeVar("_E", bound=StrEnum)


def _enum(enum: type[_E], value: object, what: str) -> _E:
    if not isinstance(value, str):
        raise MalformedMove(f"unknown {what}: {value!r}")
    try:
        return enum(value)
    except ValueError:
        raise MalformedMove(f"unknown {what}: {value!r}") from None


def project_from_dict(data: object) -> Project:
    if not isinstance(data, dict):
        raise MalformedMove("a project must be an object with kind and cards")
    kind = _enum(ProjectKind, data.get("kind"), "project kind")
    cards = data.get("cards")
    if not isinstance(cards, list) or not cards:
        raise MalformedMove("a project's cards must be a non-empty list")
    try:
        parsed = tuple(sorted(parse_card(c) for c in cards))
    except ValueError as exc:
        raise MalformedMove(str(exc)) from None
    return Project(kind=kind, cards=parsed)


# The moves most actions are, by their names: a replay parses tens of thousands of them.
_PLAYS_BY_NAME: dict[str, Move] = {card_str(c): PLAYS[c] for c in range(32)}
_BIDS_BY_CALL: dict[str, Move] = {call.value: BIDS[call, None] for call in Call}


def move_from_dict(data: object, ruleset: Ruleset = GAMERULES) -> Move:
    """Parse a record-format action (``seat`` and unknown keys are ignored) of a record in
    ``ruleset``: ``sawa`` and a Double's ``locked`` exist only where the ruleset has them
    (S11, S20); elsewhere ``sawa`` is an unknown type and ``locked`` an unknown key."""
    if type(data) is dict:
        # The common, well-formed plays and suitless bids, by lookup; everything else (and
        # every error) goes through the checks below.
        kind = data.get("type")
        if kind == "play":
            card = data.get("card")
            if type(card) is str and card in _PLAYS_BY_NAME:
                return _PLAYS_BY_NAME[card]
        elif kind == "bid" and data.get("suit") is None:
            call = data.get("call")
            if type(call) is str and call in _BIDS_BY_CALL:
                return _BIDS_BY_CALL[call]
    return _move_from_dict_checked(data, ruleset)


def _move_from_dict_checked(data: object, ruleset: Ruleset) -> Move:
    if not isinstance(data, dict):
        raise MalformedMove("a move must be a JSON object")
    move_type = _enum(MoveType, data.get("type"), "move type")
    if move_type is MoveType.SAWA:
        if not ruleset.sawa:
            raise MalformedMove(f"unknown move type: {data.get('type')!r}")
        return Sawa()
    if move_type is MoveType.PLAY:
        try:
            return Play(card=parse_card(data.get("card")))
        except ValueError as exc:
            raise MalformedMove(str(exc)) from None
    if move_type is MoveType.BID:
        call = _enum(Call, data.get("call"), "call")
        suit = data.get("suit")
        if suit is None:
            return Bid(call=call)
        try:
            return Bid(call=call, suit=parse_suit(suit))
        except ValueError as exc:
            raise MalformedMove(str(exc)) from None
    if move_type is MoveType.DOUBLE:
        double_call = _enum(DoubleCall, data.get("call"), "doubling call")
        if not ruleset.lock_chosen_by_caller or "locked" not in data:
            return Double(call=double_call)
        locked = data["locked"]
        if not isinstance(locked, bool):
            raise MalformedMove(f"locked must be a boolean: {locked!r}")
        # Where it is ignored (pass, triple, gahwa, Sun) the engine drops it when applied.
        return Double(call=double_call, locked=locked)
    projects = data.get("projects")
    if not isinstance(projects, list):
        raise MalformedMove("projects must be a list")
    return Declare(projects=tuple(project_from_dict(p) for p in projects))


def action_to_dict(seat: int, move: Move) -> dict[str, Any]:
    """A record-format action: the move with its ``seat`` first."""
    return {"seat": seat, **move_to_dict(move)}


# --- Contracts, tricks, results, rounds --------------------------------------------------------


def contract_to_dict(
    contract: Contract | None, multiplier: int, gahwa: bool, locked: bool
) -> dict[str, Any] | None:
    if contract is None:
        return None
    return {
        "kind": contract.kind.value,
        "mode": contract.mode.value,
        "trump": suit_str(contract.trump) if contract.trump is not None else None,
        "declarer": contract.declarer,
        "recipient": contract.recipient,
        "bidding_round": contract.bidding_round,
        "multiplier": multiplier,
        "gahwa": gahwa,
        "locked": locked,
    }


def trick_to_dict(trick: Trick) -> dict[str, Any]:
    return {
        "leader": trick.leader,
        "cards": [card_str(c) for c in trick.cards],
        "winner": trick.winner,
        "abnat": trick.abnat,
    }


def sawa_to_dict(claim: SawaClaim | None) -> dict[str, Any] | None:
    return None if claim is None else {"seat": claim.seat, "valid": claim.valid}


def result_to_dict(result: RoundResult, *, with_sawa: bool = False) -> dict[str, Any]:
    """A round's ``result``; ``with_sawa`` (a ruleset with Sawa) adds the key ``sawa`` (S25),
    which a `gamerules` result never has (S2)."""
    declared = [
        {"seat": seat, **project_to_dict(project)}
        for seat, projects in result.declared
        for project in projects
    ]
    return {
        "abnat": list(result.abnat),
        "card_points": list(result.card_points),
        "projects": {
            "declared": declared,
            "awarded_team": result.awarded_team,
            "points": list(result.project_points),
        },
        "baloot": list(result.baloot),
        "kaboot": result.kaboot,
        "bidder_team": result.bidder_team,
        "bidder_failed": result.bidder_failed,
        "points": list(result.points),
        "gahwa_winner": result.gahwa_winner,
        **({"sawa": sawa_to_dict(result.sawa)} if with_sawa else {}),
    }


def finished_round_to_dict(log: RoundLog, *, with_sawa: bool = False) -> dict[str, Any]:
    return {
        "dealer": log.dealer,
        "face_up": card_str(log.deck[20]),
        "status": log.status.value,
        "contract": contract_to_dict(log.contract, log.multiplier, log.gahwa, log.locked),
        "tricks": [trick_to_dict(t) for t in log.tricks],
        "result": result_to_dict(log.result, with_sawa=with_sawa),
    }


def revealed_hands_to_dict(log: RoundLog) -> list[list[str]] | None:
    """S21: the hands still held when a Sawa ended ``log``'s round, else None."""
    if log.revealed_hands is None:
        return None
    return [card_names(cards_of(h)) for h in log.revealed_hands]


def live_round_to_dict(state: GameState) -> dict[str, Any]:
    tricks = [trick_to_dict(t) for t in state.tricks]
    # A trick shows once its first card is down; an empty one would only repeat the leader.
    if state.trick:
        tricks.append(
            {
                "leader": state.leader,
                "cards": [card_str(c) for c in state.trick],
                "winner": None,
                "abnat": None,
            }
        )
    contract = None
    if state.phase is not Phase.BIDDING:
        contract = contract_to_dict(state.contract, state.multiplier, state.gahwa, state.locked)
    return {
        "dealer": state.dealer,
        "face_up": card_str(state.deck[20]),
        "status": RoundStatus.IN_PROGRESS.value,
        "contract": contract,
        "tricks": tricks,
        "result": None,
    }


def round_to_dict(state: GameState) -> dict[str, Any]:
    """The output of the round ``state`` is in, or of the round that just ended."""
    if state.phase in LIVE_PHASES:
        return live_round_to_dict(state)
    return finished_round_to_dict(state.history[-1], with_sawa=state.ruleset.sawa)


def next_to_dict(state: GameState) -> dict[str, Any] | None:
    if state.phase not in LIVE_PHASES:
        return None
    return {
        "seat": to_act(state),
        "phase": state.phase.value,
        "hands": [card_names(cards_of(h)) for h in state.hands],
        "legal": [move_to_dict(m) for m in legal_moves(state)],
    }


# --- Observations (api.md) ---------------------------------------------------------------------


def observation_to_dict(obs: Observation) -> dict[str, Any]:
    """The JSON form of an observation (cards, calls and suits as in the record format)."""
    return {
        "seat": obs.seat,
        "phase": obs.phase.value,
        "number": obs.round_no,
        "dealer": obs.dealer,
        "face_up": card_str(obs.face_up) if obs.face_up is not None else None,
        "to_act": obs.to_act,
        "hand": card_names(obs.hand),
        "card_counts": list(obs.card_counts),
        "calls": [action_to_dict(s, m) for s, m in obs.calls],
        "doubles": [action_to_dict(s, m) for s, m in obs.doubles],
        "contract": contract_to_dict(obs.contract, obs.multiplier, obs.gahwa, obs.locked),
        "doubler": obs.doubler,
        "current_trick": {
            "leader": obs.leader,
            "cards": [card_str(c) for c in obs.trick],
        }
        if obs.leader is not None
        else None,
        "last_trick": trick_to_dict(obs.tricks[-1]) if obs.tricks else None,
        "tricks_played": len(obs.tricks),
        "abnat": list(obs.abnat),
        "trick_counts": list(obs.trick_counts),
        "projects": [
            {
                "seat": d.seat,
                "kinds": list(d.kinds),
                "projects": [project_to_dict(p) for p in d.projects]
                if d.projects is not None
                else None,
            }
            for d in obs.declarations
        ],
        "baloot": list(obs.baloot),
        "legal_moves": [move_to_dict(m) for m in obs.legal_moves],
        "projects_available": [project_to_dict(p) for p in obs.projects_available],
        "projects_suggested": [project_to_dict(p) for p in obs.projects_suggested],
        # S21: present only after a round ended by Sawa (never in `gamerules`).
        **(
            {"revealed_hands": [card_names(h) for h in obs.revealed_hands]}
            if obs.revealed_hands is not None
            else {}
        ),
    }


# --- State snapshots ---------------------------------------------------------------------------
#
# A snapshot is UTF-8 JSON: {"format": SNAPSHOT_FORMAT, "version": N, "state": {...}}. Every
# field is written by name, cards as their names in the order the state holds them (a declared
# project keeps its cards exactly as given), so the snapshot neither depends on the classes'
# layout nor loses anything: ``state_from_snapshot(state_to_snapshot(s)) == s``. A change of
# shape bumps SNAPSHOT_VERSION and teaches ``state_from_snapshot`` the old one.

SNAPSHOT_FORMAT = "baloot-state"
SNAPSHOT_VERSION = 1


class SnapshotError(ValueError):
    """The bytes are not a snapshot this engine can read."""


def _cards(cards: Sequence[Card]) -> list[str]:
    return [card_str(c) for c in cards]


def _uncards(names: Sequence[str]) -> tuple[Card, ...]:
    return tuple(parse_card(n) for n in names)


def _opt_card(card: Card | None) -> str | None:
    return None if card is None else card_str(card)


def _unopt_card(name: str | None) -> Card | None:
    return None if name is None else parse_card(name)


def _pair(values: Sequence[int]) -> tuple[int, int]:
    first, second = values
    return (int(first), int(second))


def _snap_move(move: Move) -> dict[str, Any]:
    if isinstance(move, Play):
        return {"type": "play", "card": card_str(move.card)}
    if isinstance(move, Bid):
        return {"type": "bid", "call": move.call.value, "suit": move.suit}
    if isinstance(move, Double):
        if move.locked is None:
            return {"type": "double", "call": move.call.value}
        return {"type": "double", "call": move.call.value, "locked": move.locked}
    if isinstance(move, Sawa):
        return {"type": "sawa"}
    return {"type": "declare", "projects": _snap_projects(move.projects)}


def _unsnap_move(data: Mapping[str, Any]) -> Move:
    kind = data["type"]
    if kind == "play":
        return Play(parse_card(data["card"]))
    if kind == "bid":
        return Bid(Call(data["call"]), data["suit"])
    if kind == "double":
        return Double(DoubleCall(data["call"]), data.get("locked"))
    if kind == "sawa":
        return Sawa()
    if kind == "declare":
        return Declare(_unsnap_projects(data["projects"]))
    raise SnapshotError(f"unknown move type {kind!r}")


def _snap_projects(projects: Sequence[Project]) -> list[dict[str, Any]]:
    return [{"kind": p.kind.value, "cards": _cards(p.cards)} for p in projects]


def _unsnap_projects(data: Sequence[Mapping[str, Any]]) -> tuple[Project, ...]:
    return tuple(Project(ProjectKind(p["kind"]), _uncards(p["cards"])) for p in data)


def _snap_actions(actions: Sequence[tuple[int, Move]]) -> list[list[Any]]:
    return [[seat, _snap_move(move)] for seat, move in actions]


def _unsnap_actions(data: Sequence[Sequence[Any]]) -> tuple[tuple[int, Move], ...]:
    return tuple((int(seat), _unsnap_move(move)) for seat, move in data)


def _snap_declarations(
    declarations: Sequence[tuple[int, tuple[Project, ...]]],
) -> list[list[Any]]:
    return [[seat, _snap_projects(projects)] for seat, projects in declarations]


def _unsnap_declarations(
    data: Sequence[Sequence[Any]],
) -> tuple[tuple[int, tuple[Project, ...]], ...]:
    return tuple((int(seat), _unsnap_projects(projects)) for seat, projects in data)


def _snap_ruleset(ruleset: Ruleset) -> dict[str, Any]:
    # Every option by name; tuples as lists.
    return {
        f.name: list(value) if isinstance(value, tuple) else value
        for f in fields(Ruleset)
        for value in (getattr(ruleset, f.name),)
    }


def _unsnap_ruleset(data: Mapping[str, Any]) -> Ruleset:
    # An option missing from the snapshot was written before the option existed: its default
    # is the behaviour that snapshot was taken under.
    values: dict[str, Any] = {
        f.name: tuple(data[f.name]) if isinstance(data[f.name], list) else data[f.name]
        for f in fields(Ruleset)
        if f.name in data
    }
    ruleset = Ruleset(**values)
    # Hand back the registered object when it is the same ruleset, so identity checks hold.
    registered = RULESETS.get(ruleset.name)
    return registered if registered == ruleset else ruleset


def _snap_bidding(bidding: Bidding | None) -> dict[str, Any] | None:
    if bidding is None:
        return None
    return {
        "stage": bidding.stage.value,
        "order": list(bidding.order),
        "queue": list(bidding.queue),
        "bidder": bidding.bidder,
        "kind": None if bidding.kind is None else bidding.kind.value,
    }


def _unsnap_bidding(data: Mapping[str, Any] | None) -> Bidding | None:
    if data is None:
        return None
    return Bidding(
        stage=Stage(data["stage"]),
        order=tuple(data["order"]),
        queue=tuple(data["queue"]),
        bidder=data["bidder"],
        kind=None if data["kind"] is None else Call(data["kind"]),
    )


def _snap_contract(contract: Contract | None) -> dict[str, Any] | None:
    if contract is None:
        return None
    return {
        "kind": contract.kind.value,
        "mode": contract.mode.value,
        "trump": contract.trump,
        "declarer": contract.declarer,
        "recipient": contract.recipient,
        "bidding_round": contract.bidding_round,
        "face_up": card_str(contract.face_up),
    }


def _unsnap_contract(data: Mapping[str, Any] | None) -> Contract | None:
    if data is None:
        return None
    return Contract(
        kind=Call(data["kind"]),
        mode=Mode(data["mode"]),
        trump=data["trump"],
        declarer=data["declarer"],
        recipient=data["recipient"],
        bidding_round=data["bidding_round"],
        face_up=parse_card(data["face_up"]),
    )


def _snap_ladder(ladder: Ladder | None) -> dict[str, Any] | None:
    if ladder is None:
        return None
    return {
        "rung": None if ladder.rung is None else ladder.rung.value,
        "queue": list(ladder.queue),
        "multiplier": ladder.multiplier,
        "doubler": ladder.doubler,
        "gahwa": ladder.gahwa,
        "closed": ladder.closed,
    }


def _unsnap_ladder(data: Mapping[str, Any] | None) -> Ladder | None:
    if data is None:
        return None
    return Ladder(
        rung=None if data["rung"] is None else Rung(data["rung"]),
        queue=tuple(data["queue"]),
        multiplier=data["multiplier"],
        doubler=data["doubler"],
        gahwa=data["gahwa"],
        closed=data.get("closed", False),
    )


def _snap_trick(trick: Trick) -> dict[str, Any]:
    return {
        "leader": trick.leader,
        "cards": _cards(trick.cards),
        "winner": trick.winner,
        "abnat": trick.abnat,
    }


def _unsnap_trick(data: Mapping[str, Any]) -> Trick:
    return Trick(
        leader=data["leader"],
        cards=_uncards(data["cards"]),
        winner=data["winner"],
        abnat=data["abnat"],
    )


def _snap_result(result: RoundResult) -> dict[str, Any]:
    return {
        "abnat": list(result.abnat),
        "card_points": list(result.card_points),
        "declared": _snap_declarations(result.declared),
        "awarded_team": result.awarded_team,
        "project_points": list(result.project_points),
        "baloot": list(result.baloot),
        "kaboot": result.kaboot,
        "bidder_team": result.bidder_team,
        "bidder_failed": result.bidder_failed,
        "points": list(result.points),
        "gahwa_winner": result.gahwa_winner,
        "sawa": sawa_to_dict(result.sawa),
    }


def _unsnap_result(data: Mapping[str, Any]) -> RoundResult:
    return RoundResult(
        abnat=_pair(data["abnat"]),
        card_points=_pair(data["card_points"]),
        declared=_unsnap_declarations(data["declared"]),
        awarded_team=data["awarded_team"],
        project_points=_pair(data["project_points"]),
        baloot=tuple(data["baloot"]),
        kaboot=data["kaboot"],
        bidder_team=data["bidder_team"],
        bidder_failed=data["bidder_failed"],
        points=_pair(data["points"]),
        gahwa_winner=data["gahwa_winner"],
        sawa=None if data.get("sawa") is None else SawaClaim(**data["sawa"]),
    )


def _snap_log(log: RoundLog) -> dict[str, Any]:
    return {
        "number": log.number,
        "dealer": log.dealer,
        "deck": _cards(log.deck),
        "actions": _snap_actions(log.actions),
        "contract": _snap_contract(log.contract),
        "multiplier": log.multiplier,
        "gahwa": log.gahwa,
        "locked": log.locked,
        "tricks": [_snap_trick(t) for t in log.tricks],
        "result": _snap_result(log.result),
        "status": log.status.value,
        "scores_after": list(log.scores_after),
        "revealed_hands": None
        if log.revealed_hands is None
        else [_cards(cards_of(h)) for h in log.revealed_hands],
    }


def _unsnap_log(data: Mapping[str, Any]) -> RoundLog:
    return RoundLog(
        number=data["number"],
        dealer=data["dealer"],
        deck=_uncards(data["deck"]),
        actions=_unsnap_actions(data["actions"]),
        contract=_unsnap_contract(data["contract"]),
        multiplier=data["multiplier"],
        gahwa=data["gahwa"],
        locked=data["locked"],
        tricks=tuple(_unsnap_trick(t) for t in data["tricks"]),
        result=_unsnap_result(data["result"]),
        status=RoundStatus(data["status"]),
        scores_after=_pair(data["scores_after"]),
        revealed_hands=_unsnap_hands(data.get("revealed_hands")),
    )


def _unsnap_hands(data: Sequence[Sequence[str]] | None) -> tuple[int, int, int, int] | None:
    if data is None:
        return None
    masks = [sum(1 << c for c in _uncards(names)) for names in data]
    return (masks[0], masks[1], masks[2], masks[3])


def state_to_dict(state: GameState) -> dict[str, Any]:
    """The snapshot body of ``state`` (JSON-shaped; see ``state_to_snapshot``)."""
    hands = state.hands
    return {
        "ruleset": _snap_ruleset(state.ruleset),
        "target": state.target,
        "scores": list(state.scores),
        "dealer": state.dealer,
        "phase": state.phase.value,
        "round_no": state.round_no,
        "deck": _cards(state.deck),
        # Hands are sets: their record sort order is the whole information.
        "hands": [_cards(cards_of(hands[seat])) for seat in range(4)],
        "face_up": _opt_card(state.face_up),
        "bidding": _snap_bidding(state.bidding),
        "contract": _snap_contract(state.contract),
        "ladder": _snap_ladder(state.ladder),
        "leader": state.leader,
        "trick": _cards(state.trick),
        "tricks": [_snap_trick(t) for t in state.tricks],
        "abnat": list(state.abnat),
        "trick_counts": list(state.trick_counts),
        "declarations": _snap_declarations(state.declarations),
        "baloot_seat": state.baloot_seat,
        "baloot_announced": state.baloot_announced,
        "actions": _snap_actions(state.actions),
        "history": [_snap_log(log) for log in state.history],
        "winner": state.winner,
    }


def state_from_dict(data: Mapping[str, Any]) -> GameState:
    hands = []
    for names in data["hands"]:
        mask = 0
        for card in _uncards(names):
            mask |= 1 << card
        hands.append(mask)
    return GameState(
        ruleset=_unsnap_ruleset(data["ruleset"]),
        target=data["target"],
        scores=_pair(data["scores"]),
        dealer=data["dealer"],
        phase=Phase(data["phase"]),
        round_no=data["round_no"],
        deck=_uncards(data["deck"]),
        hands=(hands[0], hands[1], hands[2], hands[3]),
        face_up=_unopt_card(data["face_up"]),
        bidding=_unsnap_bidding(data["bidding"]),
        contract=_unsnap_contract(data["contract"]),
        ladder=_unsnap_ladder(data["ladder"]),
        leader=data["leader"],
        trick=_uncards(data["trick"]),
        tricks=tuple(_unsnap_trick(t) for t in data["tricks"]),
        abnat=_pair(data["abnat"]),
        trick_counts=_pair(data["trick_counts"]),
        declarations=_unsnap_declarations(data["declarations"]),
        baloot_seat=data["baloot_seat"],
        baloot_announced=data["baloot_announced"],
        actions=_unsnap_actions(data["actions"]),
        history=tuple(_unsnap_log(log) for log in data["history"]),
        winner=data["winner"],
    )


def state_to_snapshot(state: GameState) -> bytes:
    """``state`` as versioned, compact UTF-8 JSON, for storage."""
    wrapped = {
        "format": SNAPSHOT_FORMAT,
        "version": SNAPSHOT_VERSION,
        "state": state_to_dict(state),
    }
    return json.dumps(wrapped, separators=(",", ":")).encode()


def snapshot_version(data: bytes | str | Mapping[str, Any]) -> int:
    """The format version a snapshot was written with; raises SnapshotError."""
    return _unwrap(data)[0]


def state_from_snapshot(data: bytes | str | Mapping[str, Any]) -> GameState:
    """The state a snapshot holds (bytes, text, or the already parsed object).

    Raises SnapshotError for anything that is not a snapshot of a known version."""
    version, body = _unwrap(data)
    if version != SNAPSHOT_VERSION:
        raise SnapshotError(f"unknown snapshot version {version}")
    try:
        return state_from_dict(body)
    except (KeyError, TypeError, ValueError) as exc:
        raise SnapshotError(f"not a valid snapshot: {exc!r}") from exc


def _unwrap(data: bytes | str | Mapping[str, Any]) -> tuple[int, Mapping[str, Any]]:
    if isinstance(data, (bytes, bytearray, memoryview, str)):
        try:
            parsed = json.loads(bytes(data) if not isinstance(data, str) else data)
        except (ValueError, UnicodeDecodeError) as exc:
            raise SnapshotError(f"not a snapshot: {exc}") from exc
    else:
        parsed = data
    if not isinstance(parsed, Mapping) or parsed.get("format") != SNAPSHOT_FORMAT:
        raise SnapshotError(f"not a {SNAPSHOT_FORMAT} snapshot")
    version, body = parsed.get("version"), parsed.get("state")
    if not isinstance(version, int) or isinstance(version, bool) or not isinstance(body, Mapping):
        raise SnapshotError("a snapshot has an integer version and a state object")
    return version, body
