"""Command line: ``python -m games.engine replay FILE|-`` and ``... play --seed N``.

No database and no Django: this imports only the pure engine.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn, TextIO

from .cards import suit_str
from .jsontext import dumps_indented
from .record import EXIT_NOT_A_RECORD, replay_json, replay_text
from .rulesets import RULESETS
from .state import GameState, RoundLog, RoundStatus

# A list while this module runs as the command (``_run``): what a replay made is left in it
# for the end of the process instead of being freed when the replay returns.
_LEFT_TO_EXIT: list[object] | None = None

TEAMS = ("A", "B")  # team 0 = seats 0 and 2, team 1 = seats 1 and 3 (rules.md 5.0)


def _read(source: str) -> str | bytes:
    if source == "-":
        return sys.stdin.buffer.read()
    return Path(source).read_bytes()


def cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    try:
        text = _read(args.file)
    except OSError as exc:
        error = {"round": None, "action": None, "code": "malformed", "message": str(exc)}
        output = {
            "rounds": [],
            "scores": [0, 0],
            "finished": False,
            "winner": None,
            "next": None,
            "error": error,
        }
        status = EXIT_NOT_A_RECORD
    else:
        # The cycle collector finds nothing here: a replay makes only immutable values and
        # JSON-shaped dicts, none of which can hold a reference cycle, and reference counting
        # frees them all. On a long record the collector would keep walking the growing
        # match history, a quarter of the command's time, for nothing.
        gc.disable()
        try:
            if args.compact:
                output, status = replay_text(text)
                printed = json.dumps(output) + "\n"
            else:
                printed, status = replay_json(text, retain=_LEFT_TO_EXIT, end="\n")
        finally:
            gc.enable()
        out.write(printed)  # one write of the whole text
        return status
    out.write((json.dumps(output) if args.compact else dumps_indented(output)) + "\n")
    return status


def _contract_text(log: RoundLog) -> str:
    contract = log.contract
    if contract is None:
        return "-"
    if contract.trump is not None:
        return f"{contract.kind.value} {suit_str(contract.trump)}"
    return contract.kind.value


def _multiplier_text(log: RoundLog) -> str:
    if log.contract is None:
        return "-"
    return "gahwa" if log.gahwa else f"x{log.multiplier}"


def _projects_text(log: RoundLog) -> str:
    result = log.result
    if result.awarded_team is None:
        return "-"
    team = result.awarded_team
    return f"{TEAMS[team]}+{result.project_points[team]}"


def _outcome_text(log: RoundLog) -> str:
    result = log.result
    if log.status is RoundStatus.REDEAL:
        return "redeal"
    outcome = "failed" if result.bidder_failed else "made"
    if result.sawa is not None:  # S25: who called it, and whether it held
        outcome = (
            f"{outcome}, sawa {result.sawa.seat}"
            if result.sawa.valid
            else (f"false sawa {result.sawa.seat}")
        )
    if result.gahwa_winner is not None:
        return f"gahwa won by {TEAMS[result.gahwa_winner]}"
    return outcome


SHEET_HEADER = (
    f"{'#':>3} {'dlr':>3} {'contract':<9} {'decl':>4} {'mult':>5} {'abnat':>7} "
    f"{'proj':>5} {'bal':>4} {'kab':>3} {'outcome':<16} {'points':>7} {'totals':>9}"
)


def sheet_line(log: RoundLog) -> str:
    result = log.result
    declarer = "-" if log.contract is None else str(log.contract.declarer)
    baloot = ",".join(str(s) for s in result.baloot) or "-"
    kaboot = "-" if result.kaboot is None else TEAMS[result.kaboot]
    abnat = f"{result.abnat[0]}/{result.abnat[1]}"
    points = f"{result.points[0]}/{result.points[1]}"
    totals = f"{log.scores_after[0]}/{log.scores_after[1]}"
    return (
        f"{log.number:>3} {log.dealer:>3} {_contract_text(log):<9} {declarer:>4} "
        f"{_multiplier_text(log):>5} {abnat:>7} {_projects_text(log):>5} {baloot:>4} "
        f"{kaboot:>3} {_outcome_text(log):<16} {points:>7} {totals:>9}"
    )


def print_sheet(state: GameState, out: TextIO) -> None:
    out.write(SHEET_HEADER + "\n")
    for log in state.history:
        out.write(sheet_line(log) + "\n")
    assert state.winner is not None
    a, b = state.scores
    out.write(f"winner: team {TEAMS[state.winner]} (seats {state.winner} and ")
    out.write(f"{state.winner + 2}), {a}-{b}\n")


def cmd_play(args: argparse.Namespace, out: TextIO) -> int:
    # Imported here: the replay, which has to start fast, needs none of the bots.
    from .selfplay import load_bot, play_match

    ruleset = RULESETS[args.ruleset]
    try:
        bot = load_bot(args.bot, ruleset)
    except ValueError as exc:
        sys.stderr.write(f"{exc}\n")
        return 2
    rng = random.Random(args.seed)
    state = play_match(rng, [bot] * 4, ruleset=ruleset, dealer=args.dealer, target=args.target)
    header = f"seed {args.seed}, bots: {args.bot}, target {state.target}"
    if ruleset.name != "gamerules":  # the gamerules sheet stays as it always was
        header += f", ruleset {ruleset.name}"
    out.write(header + "\n")
    print_sheet(state, out)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m games.engine", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    rep = sub.add_parser("replay", help="replay a baloot-record/1 record and print the result")
    rep.add_argument("file", help="the record's path, or - for standard input")
    rep.add_argument("--compact", action="store_true", help="print JSON on one line")
    rep.set_defaults(func=cmd_replay)
    play = sub.add_parser("play", help="play a match between bots and print its score sheet")
    play.add_argument("--seed", type=int, default=0)
    play.add_argument("--bot", default="random", help="random, or a module of games.engine.bots")
    play.add_argument("--dealer", type=int, choices=range(4), default=None)
    play.add_argument("--target", type=int, default=None)
    play.add_argument("--ruleset", choices=sorted(RULESETS), default="gamerules")
    play.set_defaults(func=cmd_play)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    args = build_parser().parse_args(argv)
    command: Callable[[argparse.Namespace, TextIO], int] = args.func
    return command(args, out or sys.stdout)


def _run() -> NoReturn:
    """The command: ``main``, then exit without taking the interpreter down object by object.
    A long replay leaves millions of small objects (the parsed record, every round's logs);
    freeing them one at a time took about a twentieth of the command's time, and the
    operating system takes the memory back at once. Nothing but our own output is pending,
    and it is flushed first."""
    global _LEFT_TO_EXIT
    _LEFT_TO_EXIT = []
    status = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(status)


if __name__ == "__main__":
    _run()
