"""The ``baloot-record/1`` format: replay a record, export a match or a round as one.

``replay`` is the contract of record-format.md: it never raises, whatever it is given, and
returns the output object with the exit status the command line uses (0 replayed, 3 an action
or round refused, 2 not a record). ``replay_state`` also hands back the resulting
``GameState`` so tests can compare a replayed match with the one that was exported.

Records are processed in order and the first problem wins: a refused action in round 0 stops
the replay before a later round is looked at. Everything before the problem is replayed into
``rounds``/``next``.

Each round is replayed by ``replay.replay_round``, the engine's one replay; the shapes come from
``codec.record_format`` and ``codec.moves``, and the commitment from ``commitment``.
``record_of``/``record_round`` build a record from its parts, for the exports here and for any
exporter that reads its rounds elsewhere.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from .cards import Card, card_str
from .codec.moves import action_to_dict, move_from_dict
from .codec.record_format import LIVE_PHASES, next_to_dict, round_to_dict
from .commitment import deck_commitment
from .errors import MalformedMove
from .jsontext import dumps_indented, finished_round
from .moves import BIDS, DOUBLES, PLAYS, Call, DoubleCall, Move
from .replay import ReplayRefused, replay_round
from .rules import new_match, with_history
from .rulesets import RULESETS, Ruleset
from .state import GameState, Phase, RoundLog

__all__ = [
    "DEFAULT_RULESET",
    "EXIT_NOT_A_RECORD",
    "EXIT_OK",
    "EXIT_REFUSED",
    "FORMAT",
    "ReplayResult",
    "export_match",
    "export_round",
    "record_of",
    "record_round",
    "replay",
    "replay_json",
    "replay_state",
    "replay_text",
    "state_from_record",
]

FORMAT = "baloot-record/1"
DEFAULT_RULESET = "gamerules"

EXIT_OK = 0
EXIT_NOT_A_RECORD = 2
EXIT_REFUSED = 3


class _NotARecord(Exception):
    """A record-level ``malformed`` (exit 2); ``round`` is the round index or None."""

    def __init__(self, message: str, round_index: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.round_index = round_index


@dataclass(frozen=True, slots=True)
class ReplayResult:
    output: dict[str, Any]
    status: int
    state: GameState | None  # None when the header itself was not a record


# --- Parsing -------------------------------------------------------------------------------


def _is_int(value: object) -> bool:
    # JSON true/false arrive as bool, which Python also counts as int.
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class _Header:
    ruleset: Ruleset
    dealer: int
    scores: tuple[int, int]
    target: int
    rounds: list[Any]


def _parse_header(record: object) -> _Header:
    if not isinstance(record, dict):
        raise _NotARecord("a record is a JSON object")
    if record.get("format") != FORMAT:
        raise _NotARecord(f"format must be {FORMAT!r}")
    name = record.get("ruleset", DEFAULT_RULESET)
    if not isinstance(name, str) or name not in RULESETS:
        raise _NotARecord(f"unknown ruleset: {name!r}")
    ruleset = RULESETS[name]
    dealer = record.get("dealer", 0)
    if not _is_int(dealer) or dealer not in range(4):
        raise _NotARecord("dealer must be a seat 0-3")
    scores = record.get("scores", [0, 0])
    if (
        not isinstance(scores, list)
        or len(scores) != 2
        or not all(_is_int(s) and s >= 0 for s in scores)
    ):
        raise _NotARecord("scores must be two non-negative integers")
    target = record.get("target", ruleset.default_target)
    if not _is_int(target) or target <= 0:
        raise _NotARecord("target must be a positive integer")
    rounds = record.get("rounds")
    if not isinstance(rounds, list):
        raise _NotARecord("rounds must be a list")
    return _Header(ruleset, dealer, (scores[0], scores[1]), target, rounds)


class _Round(NamedTuple):
    # A named tuple, not a dataclass: one is made per round of a record, and a frozen
    # dataclass's __init__ costs several times a tuple's.
    deck: tuple[Card, ...]
    deck_names: list[str]
    actions: list[Any]
    salt: str | None
    commitment: str | None


def _parse_round(data: object, index: int) -> _Round:
    if not isinstance(data, dict):
        raise _NotARecord("a round is a JSON object", index)
    names = data.get("deck")
    try:
        if not isinstance(names, list):
            raise ValueError
        # parse_card for each name, by one lookup each (a non-card is a KeyError, a list or
        # an object in the deck a TypeError).
        deck = tuple(map(_CARDS_BY_NAME.__getitem__, names))
    except (ValueError, KeyError, TypeError):
        raise _NotARecord("deck must be a list of 32 distinct cards", index) from None
    if len(deck) != 32 or len(set(deck)) != 32:
        raise _NotARecord("deck must be a list of 32 distinct cards", index)
    actions = data.get("actions")
    if not isinstance(actions, list):
        raise _NotARecord("actions must be a list", index)
    salt, commitment = data.get("salt"), data.get("commitment")
    if salt is not None and not isinstance(salt, str):
        raise _NotARecord("salt must be a string", index)
    if commitment is not None and not isinstance(commitment, str):
        raise _NotARecord("commitment must be a string", index)
    return _Round(deck, names, actions, salt, commitment)


def _parse_actions(
    actions: list[Any], ruleset: Ruleset
) -> tuple[list[tuple[int, Move]], MalformedMove | None]:
    """The actions of a round, parsed up to the first one that is not well formed, and the
    problem with that one (None if there is none)."""
    parsed: list[tuple[int, Move]] = []
    append = parsed.append
    plays, bids, doubles = _PLAY_ACTIONS, _BID_ACTIONS, _DOUBLE_ACTIONS
    for data in actions:
        # Most actions are a card play, a suitless bid or a doubling call without a lock
        # choice by a seat: looked up whole, by subscripts (cheaper than ``dict.get`` calls).
        # Anything else, a missing key, a seat above 3 or a name not in the tables included,
        # raises here and is parsed in full below; a try costs nothing until it catches. The
        # seat is checked first and by ``type`` (a bool is not a seat, and True would index
        # seat 1), and only against 0: a single comparison, where a chained one costs more.
        try:
            seat = data["seat"]
            if type(seat) is int and seat >= 0:
                kind = data["type"]
                if kind == "play":
                    append(plays[data["card"]][seat])
                    continue
                if kind == "bid" and "suit" not in data:
                    append(bids[data["call"]][seat])
                    continue
                if kind == "double" and "locked" not in data:
                    append(doubles[data["call"]][seat])
                    continue
        except (TypeError, KeyError, IndexError):
            pass
        try:
            append(_parse_action(data, ruleset))
        except MalformedMove as problem:
            return parsed, problem
    return parsed, None


# (seat, move) of every card play, suitless bid and doubling call, by the name in the record
# (a card name or a call), then by seat.
_CARDS_BY_NAME: dict[str, Card] = {card_str(c): c for c in range(32)}
_Actions = dict[str, tuple[tuple[int, Move], ...]]
_PLAY_ACTIONS: _Actions = {
    card_str(c): tuple((seat, PLAYS[c]) for seat in range(4)) for c in range(32)
}
_BID_ACTIONS: _Actions = {
    call.value: tuple((seat, BIDS[call, None]) for seat in range(4)) for call in Call
}
# Without "locked", a doubling call is the call alone in every ruleset (codec.moves.move_from_dict).
_DOUBLE_ACTIONS: _Actions = {
    call.value: tuple((seat, DOUBLES[call, None]) for seat in range(4)) for call in DoubleCall
}


def _parse_action(data: object, ruleset: Ruleset) -> tuple[int, Move]:
    if not isinstance(data, dict):
        raise MalformedMove("an action must be a JSON object")
    seat = data.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or seat not in range(4):
        raise MalformedMove(f"not a seat: {seat!r}")
    return seat, move_from_dict(data, ruleset)


# --- Output --------------------------------------------------------------------------------


def _output(
    rounds: list[Any],
    state: GameState | None,
    error: dict[str, Any] | None,
    *,
    show_next: bool = True,
) -> dict[str, Any]:
    return {
        "rounds": rounds,
        "scores": list(state.scores) if state else [0, 0],
        "finished": bool(state and state.phase is Phase.FINISHED),
        "winner": state.winner if state else None,
        "next": next_to_dict(state) if state and show_next else None,
        "error": error,
    }


def _error(code: str, message: str, round_index: int | None, action: int | None) -> dict[str, Any]:
    return {"round": round_index, "action": action, "code": code, "message": message}


# --- Replay --------------------------------------------------------------------------------


def replay(record: object) -> tuple[dict[str, Any], int]:
    """Replay a parsed record; return (output object, exit status). Never raises."""
    result = replay_state(record)
    return result.output, result.status


def replay_text(text: str | bytes) -> tuple[dict[str, Any], int]:
    """``replay`` for raw JSON text, as the command line reads it."""
    try:
        record = json.loads(text)
    except (ValueError, RecursionError) as exc:
        error = _error("malformed", f"not JSON: {exc}", None, None)
        return _output([], None, error), EXIT_NOT_A_RECORD
    return replay(record)


def replay_json(
    text: str | bytes, *, retain: list[object] | None = None, end: str = ""
) -> tuple[str, int]:
    """``replay_text`` as the command line prints it: the output object as indented JSON
    text (``json.dumps(output, indent=2)``, byte for byte) followed by ``end``, and the exit
    status. Complete rounds are written straight from their logs
    (``jsontext.finished_round``). ``retain`` receives the parsed record and the replay, for
    a caller that frees them later or never (the command line exits without freeing them)."""
    try:
        record = json.loads(text)
    except (ValueError, RecursionError) as exc:
        error = _error("malformed", f"not JSON: {exc}", None, None)
        return dumps_indented(_output([], None, error), end), EXIT_NOT_A_RECORD
    result = replay_state(record, rendered=True)
    if retain is not None:
        retain += (record, result)
    return dumps_indented(result.output, end), result.status


def replay_state(record: object, *, rendered: bool = False) -> ReplayResult:
    """The replay of ``record``; ``rendered`` leaves each complete round of the output as its
    JSON text (``jsontext.Rendered``) instead of a dictionary, for ``replay_json``."""
    try:
        header = _parse_header(record)
    except _NotARecord as exc:
        malformed = _error("malformed", exc.message, None, None)
        return ReplayResult(_output([], None, malformed), EXIT_NOT_A_RECORD, None)
    state = new_match(
        header.ruleset, dealer=header.dealer, scores=header.scores, target=header.target
    )
    rounds: list[Any] = []
    # Each round is replayed from a state holding only its own log, and the match's logs are
    # kept here and put back at the end: a round adds its log to the state's history tuple,
    # and doing that on the whole history made a long record's replay quadratic.
    logs: list[RoundLog] = []
    status, error = EXIT_OK, None
    for index, data in enumerate(header.rounds):
        try:
            state, error = _replay_round(state, data, index, rounds, rendered)
        except _NotARecord as exc:
            error = _error("malformed", exc.message, exc.round_index, None)
            status = EXIT_NOT_A_RECORD
            break
        if state.history:
            logs.append(state.history[-1])
            state = with_history(state, ())
        if error is not None:  # a refused action or commitment: a record, but refused
            status = EXIT_REFUSED
            break
    state = with_history(state, tuple(logs))
    return ReplayResult(_output(rounds, state, error), status, state)


def _replay_round(
    state: GameState, data: object, index: int, rounds: list[Any], rendered: bool
) -> tuple[GameState, dict[str, Any] | None]:
    """Replay one round onto ``state``, appending its output to ``rounds``; return the new
    state and the error that stopped it, if any. Raises _NotARecord."""
    if state.phase is Phase.FINISHED:
        raise _NotARecord("a round after the match ended", index)
    if state.phase is not Phase.DEAL:
        raise _NotARecord("a round after a round in progress", index)
    parsed = _parse_round(data, index)
    if parsed.salt is not None and parsed.commitment is not None:
        expected = deck_commitment(parsed.salt, parsed.deck_names)
        if parsed.commitment.lower() != expected:
            message = "the deck does not match its commitment"
            # Nothing of the round is replayed: its deck is not the one that was promised.
            return state, _error("commitment_mismatch", message, index, None)
    # Records are processed in order: a refused action before a malformed one is the error.
    actions, malformed = _parse_actions(parsed.actions, state.ruleset)
    error = None
    try:
        state = replay_round(state, parsed.deck, actions)
    except ReplayRefused as refused:
        state = refused.state
        error = _error(refused.error.code, refused.error.message, index, refused.action)
    else:
        if malformed is not None:
            error = _error(malformed.code, malformed.message, index, len(actions))
    if rendered and state.phase not in LIVE_PHASES:
        rounds.append(finished_round(state.history[-1], with_sawa=state.ruleset.sawa))
    else:
        rounds.append(round_to_dict(state))
    return state, error


def state_from_record(record: object) -> GameState:
    """The state a record replays to; raises ValueError when it does not replay cleanly."""
    result = replay_state(record)
    if result.status != EXIT_OK or result.state is None:
        raise ValueError(f"record does not replay: {result.output['error']}")
    return result.state


# --- Export --------------------------------------------------------------------------------


def _scores_before(log: RoundLog) -> tuple[int, int]:
    # A round adds result.points (zero for a redeal and for Gahwa) to the totals before it.
    after, points = log.scores_after, log.result.points
    return (after[0] - points[0], after[1] - points[1])


def record_round(
    deck: Sequence[Card] | Sequence[str],
    actions: Iterable[tuple[int, Move]],
    salt: str | None = None,
) -> dict[str, Any]:
    """One round of a record: its deck, its actions and, given a salt, salt and commitment."""
    out: dict[str, Any] = {
        "deck": [c if isinstance(c, str) else card_str(c) for c in deck],
        "actions": [action_to_dict(seat, move) for seat, move in actions],
    }
    if salt is not None:
        out["salt"] = salt
        out["commitment"] = deck_commitment(salt, deck)
    return out


def record_of(
    ruleset: str,
    dealer: int,
    scores: Sequence[int],
    target: int,
    rounds: Iterable[dict[str, Any]],
) -> dict[str, Any]:
    """A ``baloot-record/1`` record from its header values and ``record_round`` rounds."""
    return {
        "format": FORMAT,
        "ruleset": ruleset,
        "dealer": dealer,
        "scores": list(scores),
        "target": target,
        "rounds": list(rounds),
    }


def _has_live_round(state: GameState) -> bool:
    return state.phase in LIVE_PHASES


def export_match(
    state: GameState,
    *,
    include_current: bool = True,
    salts: Mapping[int, str] | None = None,
) -> dict[str, Any]:
    """A record of every round of ``state``'s match, the round in progress too unless
    ``include_current`` is false (the API decides what it may reveal). ``salts`` maps a
    round's index in the record to its salt; those rounds carry salt and commitment.

    The first dealer and the starting scores come from the first round's log, so a state
    that began from a record with non-zero scores exports them faithfully."""
    salts = salts or {}
    if state.history:
        first = state.history[0]
        dealer, scores = first.dealer, _scores_before(first)
    else:
        dealer, scores = state.dealer, state.scores
    rounds = [
        record_round(log.deck, log.actions, salts.get(index))
        for index, log in enumerate(state.history)
    ]
    if include_current and _has_live_round(state):
        rounds.append(record_round(state.deck, state.actions, salts.get(len(state.history))))
    return record_of(state.ruleset.name, dealer, scores, state.target, rounds)


def export_round(state: GameState, index: int, *, salt: str | None = None) -> dict[str, Any]:
    """A one-round record of round ``index`` (0-based among the match's rounds; the round in
    progress is ``len(state.history)``), with the dealer and scores it was played under."""
    name, target = state.ruleset.name, state.target
    if 0 <= index < len(state.history):
        log = state.history[index]
        rounds = [record_round(log.deck, log.actions, salt)]
        return record_of(name, log.dealer, _scores_before(log), target, rounds)
    if index == len(state.history) and _has_live_round(state):
        rounds = [record_round(state.deck, state.actions, salt)]
        return record_of(name, state.dealer, state.scores, target, rounds)
    raise IndexError(f"no round {index} in this match")
