"""Fair-play signals: when a match's post-game analysis is ready, test its people against
the honest baselines (``moderation.fairplay``) and open a flag for a signal above its
threshold. For moderators only: nothing is shown to players, nothing is sanctioned.

* each pair of partners (two accounts, seats 0/2 or 1/3) over their last
  ``FAIRPLAY_SHARED_WINDOW`` matches together;
* each account over its last ``FAIRPLAY_ENGINE_WINDOW`` matches, for play at the engine's
  level.

Only decisions a person made count (the move log's ``actor`` is ``human``: a turn a bot
played after a timeout is the bot's), and only matches that no earlier flag of the same kind
on the same accounts holds, so the same evidence never raises two flags: after a flag, the
next one needs a window of new matches.

The listener runs once the analysis has committed (in the analysis worker, never in a
request), reads a window of analyses per subject with no lock held, and opens a
flag in one short transaction that locks the subjects' account rows first, so two checks of
the same accounts at once cannot both open one.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Q

from accounts.models import User
from core import events
from games.events import AnalysisReady
from games.models import Actor, AnalysisStatus, Match, MatchAnalysis, Move, Seat
from moderation import fairplay
from moderation.models import Flag, FlagKind

log = logging.getLogger(__name__)

# The setting that sizes each signal's window (matches): partners sharing hands show within a
# few matches; play at the engine's level differs from honest play by a few points of share,
# which takes more decisions to tell (docs/decisions.md "Fair-play signals").
WINDOWS: dict[str, str] = {
    FlagKind.SHARED_HANDS: "FAIRPLAY_SHARED_WINDOW",
    FlagKind.ENGINE_HELP: "FAIRPLAY_ENGINE_WINDOW",
}


@dataclass(frozen=True, slots=True)
class SeatDecisions:
    """A person's valued decisions in one match: (loss, partner_loss, trick) each."""

    match_id: int
    decisions: tuple[tuple[float, float | None, int | None], ...]


def _settings() -> dict[str, Any]:
    return settings.BALOOT


def _human_actions(match_ids: list[int]) -> dict[int, set[tuple[int, int]]]:
    """Per match, (round, index in the round's log) of every move a person made (one query
    for the whole window)."""
    rows = (
        Move.objects.filter(match_id__in=match_ids)
        .order_by("match_id", "seq")
        .values_list("match_id", "round_number", "actor")
    )
    human: dict[int, set[tuple[int, int]]] = defaultdict(set)
    index_in_round: dict[tuple[int, int], int] = defaultdict(int)
    for match_id, number, actor in rows:
        if actor == Actor.HUMAN:
            human[match_id].add((number, index_in_round[match_id, number]))
        index_in_round[match_id, number] += 1
    return human


def _decisions_of(
    analysis: MatchAnalysis, seats: Iterable[int], human: set[tuple[int, int]]
) -> SeatDecisions:
    wanted = set(seats)
    found = []
    for stored in analysis.decisions:
        if len(stored) < 11 or stored[2] not in wanted or (stored[0], stored[1]) not in human:
            continue  # stored before the signals existed, another seat, or a bot's turn
        loss = max(0.0, stored[7] - stored[6])
        found.append((loss, stored[9], stored[10]))
    return SeatDecisions(analysis.match_id, tuple(found))


def _flagged_matches(kind: str, subjects: list[int]) -> set[int]:
    """Matches an earlier flag of ``kind`` on exactly these accounts already holds."""
    flags = (
        Flag.objects.filter(kind=kind)
        .annotate(
            subject_count=Count("subjects", distinct=True),
            wanted=Count("subjects", filter=Q(subjects__in=subjects), distinct=True),
        )
        .filter(subject_count=len(subjects), wanted=len(subjects))
    )
    held = Flag.matches.through.objects.filter(flag__in=flags)
    return set(held.values_list("match_id", flat=True))


def _window(kind: str, subjects: list[int]) -> list[SeatDecisions]:
    """The subjects' latest analysed matches (for two, as partners) that no earlier flag of
    ``kind`` on them holds, newest first: at most ``FAIRPLAY_WINDOW`` of them."""
    size = _settings()[WINDOWS[kind]]
    matches = Match.objects.filter(analysis__status=AnalysisStatus.READY)
    for user_id in subjects:  # one join each: matches where every subject sat
        matches = matches.filter(seats__user_id=user_id)
    # A pair's matches as opponents are read and dropped below, so read some more than the
    # window; a pair that mostly meets as opponents gets a shorter window, not a slow query.
    candidates = list(
        matches.exclude(pk__in=_flagged_matches(kind, subjects))
        .order_by("-finished_at", "-pk")
        .values_list("pk", flat=True)[: 3 * size]
    )
    seats: dict[int, list[int]] = defaultdict(list)
    for match_id, index in Seat.objects.filter(
        match_id__in=candidates, user_id__in=subjects
    ).values_list("match_id", "index"):
        seats[match_id].append(index)
    # Partners: two seats of one team (for one account, its one seat).
    chosen = [m for m in candidates if len({i % 2 for i in seats[m]}) == 1][:size]
    analyses = {a.match_id: a for a in MatchAnalysis.objects.filter(match_id__in=chosen)}
    human = _human_actions(chosen)
    return [_decisions_of(analyses[m], seats[m], human[m]) for m in chosen]


def _test(kind: str, window: list[SeatDecisions]) -> fairplay.ShareTest:
    conf = _settings()
    if kind == FlagKind.SHARED_HANDS:
        return fairplay.shared_hands_test(
            ((loss, partner) for w in window for loss, partner, _ in w.decisions),
            baseline=conf["FAIRPLAY_SHARED_BASELINE"],
            alpha=conf["FAIRPLAY_ALPHA"],
            min_trials=conf["FAIRPLAY_SHARED_MIN_TRIALS"],
        )
    return fairplay.engine_help_test(
        ((loss, trick) for w in window for loss, _, trick in w.decisions),
        baseline=conf["FAIRPLAY_ENGINE_BASELINE"],
        alpha=conf["FAIRPLAY_ALPHA"],
        min_trials=conf["FAIRPLAY_ENGINE_MIN_TRIALS"],
    )


def _check(kind: str, subjects: list[int], match: Match) -> Flag | None:
    """Test ``subjects`` for ``kind`` over their window; open a flag if the test says so."""
    window = _window(kind, subjects)
    if not window:
        return None
    test = _test(kind, window)
    if not test.flagged:
        return None
    with transaction.atomic():
        # Locked in id order (as everywhere accounts are locked together): a second check of
        # the same accounts waits here, then finds these matches held by this flag.
        list(User.objects.select_for_update().filter(pk__in=subjects).order_by("pk"))
        ids = [w.match_id for w in window]
        if _flagged_matches(kind, subjects) & set(ids):
            return None
        flag = Flag.objects.create(
            kind=kind,
            ruleset=match.ruleset,
            match=match,
            statistic={**test.as_json(), "matches": len(ids)},
        )
        flag.subjects.set(subjects)
        flag.matches.set(ids)
    log.info("fair-play flag %s (%s) on accounts %s", flag.pk, kind, subjects)
    return flag


def fairplay_check(match_id: int) -> list[Flag]:
    """Test the people of a match whose analysis is ready: each pair of partners that are
    both people, and each person. The flags opened (usually none)."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return []
    users = {s.index: s.user_id for s in match.seat_list() if s.user_id is not None}
    checks: list[tuple[str, list[int]]] = []
    for seat in (0, 1):
        if seat in users and seat + 2 in users and users[seat] != users[seat + 2]:
            checks.append((FlagKind.SHARED_HANDS, sorted((users[seat], users[seat + 2]))))
    checks += [(FlagKind.ENGINE_HELP, [user_id]) for user_id in sorted(set(users.values()))]
    flags = [_check(kind, subjects, match) for kind, subjects in checks]
    return [f for f in flags if f is not None]


def _on_analysis_ready(event: AnalysisReady) -> None:
    # After the analysis commits, in the worker that made it; a failure is logged and does
    # not undo the analysis (robust).
    transaction.on_commit(lambda: fairplay_check(event.match_id), robust=True)


def connect() -> None:
    events.subscribe(AnalysisReady, _on_analysis_ready)
