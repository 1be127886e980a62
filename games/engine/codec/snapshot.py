"""The versioned snapshot of a whole ``GameState`` (``state_to_snapshot`` /
``state_from_snapshot``), which the Django layer stores instead of a pickle: it names fields
explicitly, so it survives a change of class layout, and it round-trips exactly.

A snapshot is UTF-8 JSON: {"format": SNAPSHOT_FORMAT, "version": N, "state": {...}}. Every
field is written by name, cards as their names in the order the state holds them (a declared
project keeps its cards exactly as given), so the snapshot neither depends on the classes'
layout nor loses anything: ``state_from_snapshot(state_to_snapshot(s)) == s``. A change of
shape bumps SNAPSHOT_VERSION and teaches ``state_from_snapshot`` the old one.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import fields
from typing import Any

from ..bidding import Bidding, Contract, Ladder, Mode, Rung, Stage
from ..cards import Card, card_str, cards_of, parse_card
from ..moves import Bid, Call, Declare, Double, DoubleCall, Move, Play, Project, ProjectKind, Sawa
from ..rulesets import RULESETS, Ruleset
from ..scoring import RoundResult, SawaClaim
from ..state import GameState, Phase, RoundLog, RoundStatus, Trick
from .record_format import sawa_to_dict

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
