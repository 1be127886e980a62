"""``manage.py rebuild_snapshots [--match ID ...] [--check]``: each match's snapshot against
the truth it caches, the rounds' decks and the move log replayed by the engine's one replay.

Without ``--check`` a snapshot that differs (or cannot be read, or was written in an older
form) is rewritten from the replay; with it nothing is written and the command exits non-zero
if any differs. A log that does not replay is reported and never written over, in both modes.
Every round keeps its deck in the database, a round cut short by resignation too (it is only
kept from the API), so every started match can be rebuilt.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from games import engine
from games.errors import MatchNotFound
from games.models import Match, MatchStatus
from games.replay import state_from_log
from games.services import match_lock
from games.services.state import snapshot_rewrite


class Command(BaseCommand):
    help = (
        "Rebuild match snapshots from each round's deck and the move log; with --check, "
        "only report those that differ and exit 1 if any does."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--match",
            dest="matches",
            metavar="ID",
            type=int,
            nargs="+",
            action="extend",
            help="only these matches (default: every match)",
        )
        parser.add_argument(
            "--check",
            action="store_true",
            help="write nothing; exit 1 if a snapshot differs from its replay",
        )

    def handle(self, *args: Any, matches: list[int] | None, check: bool, **options: Any) -> None:
        verbosity = options["verbosity"]
        ids = matches or list(Match.objects.order_by("pk").values_list("pk", flat=True))
        agree, differ, failed = 0, 0, 0
        for pk in ids:
            try:
                problem, ok = self._one(pk, check=check)
            except MatchNotFound:
                problem, ok = "no such match", None
            if ok:
                agree += 1
                if verbosity >= 2:
                    self.stdout.write(f"match {pk}: the snapshot is its replay")
            elif ok is None:
                failed += 1
                self.stderr.write(f"match {pk}: {problem}")
            else:
                differ += 1
                action = "differs" if check else "rewritten"
                self.stdout.write(f"match {pk}: {problem}; {action}")
        done = "differ" if check else "rewritten"
        self.stdout.write(
            f"{len(ids)} matches: {agree} agree with their replay, {differ} {done}, "
            f"{failed} could not be rebuilt"
        )
        if failed or (check and differ):
            raise CommandError(f"{differ} snapshots differ, {failed} could not be rebuilt")

    def _one(self, pk: int, *, check: bool) -> tuple[str, bool | None]:
        """(what is wrong, True if the snapshot agrees / False if it differs / None if the
        match cannot be rebuilt). One transaction per match, holding its row lock, so a move
        made meanwhile is either in the replay or waits for the rewrite."""
        with transaction.atomic():
            match = match_lock(pk)
            try:
                rebuilt = state_from_log(match)
            except (engine.ReplayRefused, ValueError, KeyError) as exc:
                return f"the log does not replay ({exc})", None
            if rebuilt is None:
                if match.snapshot is None:
                    return "", True  # not started: nothing to cache
                return "a snapshot but no rounds to rebuild it from", None
            problem = _difference(match, rebuilt)
            if problem is None:
                return "", True
            if not check:
                snapshot_rewrite(match, rebuilt)
            return problem, False


def _difference(match: Match, rebuilt: engine.GameState) -> str | None:
    if match.snapshot is None:
        return "no snapshot"
    try:
        stored = match.load_state()
    except engine.SnapshotError as exc:
        return f"the snapshot cannot be read ({exc})"
    if stored != rebuilt:
        return "the snapshot differs from the replay of the log"
    # The columns denormalised from the snapshot for the inbox and the sweep.
    turn = engine.to_act(rebuilt) if match.status == MatchStatus.ACTIVE else None
    if match.to_act != turn or match.scores != list(rebuilt.scores):
        return "the turn or the scores on the row differ from the replay"
    if bytes(match.snapshot) != engine.state_to_snapshot(rebuilt):
        return "the snapshot is the replay, written in an older form"
    return None
