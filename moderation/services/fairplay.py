"""Fair-play signals: when a match's post-game analysis is ready, test its people against
the honest baselines (``moderation.fairplay``) and open a flag for a signal above its
threshold. For moderators only: nothing is shown to players, nothing is sanctioned.

* each pair of partners (two accounts, seats 0/2 or 1/3) over their last
  ``FAIRPLAY_SHARED_WINDOW`` matches together;
* each account over its last ``FAIRPLAY_ENGINE_WINDOW`` matches, for play at the engine's
  level.

Only decisions a person made count (the move log's ``actor`` is ``human``: a turn a bot
played after a timeout is the bot's). While a flag of a kind on some accounts is open, no
second one is opened; once it is settled, only matches finished after the newest it held are
read, so the same evidence never raises two flags.

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
from datetime import datetime

from django.conf import settings
from django.db import DatabaseError, transaction
from django.db.models import Count, Max, Q, QuerySet

from accounts.models import User
from core import events
from games.events import AnalysisReady
from games.models import Actor, AnalysisStatus, Match, MatchAnalysis, Move, Seat
from moderation import fairplay
from moderation.models import Flag, FlagKind, ReportStatus

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class SeatDecisions:
    """A person's valued decisions in one match: (loss, partner_loss, trick) each."""

    match_id: int
    decisions: tuple[tuple[float, float | None, int | None], ...]


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


def _flags_on(kind: str, subjects: list[int]) -> QuerySet[Flag]:
    """The flags of ``kind`` on exactly these accounts, newest first."""
    return (
        Flag.objects.filter(kind=kind)
        .annotate(
            subject_count=Count("subjects", distinct=True),
            wanted=Count("subjects", filter=Q(subjects__in=subjects), distinct=True),
        )
        .filter(subject_count=len(subjects), wanted=len(subjects))
        .order_by("-created_at", "-pk")
    )


def _evidence_end(flag: Flag | None) -> datetime | None:
    """When the newest match a flag holds finished: the next window starts after it."""
    if flag is None:
        return None
    return flag.matches.aggregate(end=Max("finished_at"))["end"]


def _window(kind: str, subjects: list[int], after: datetime | None) -> list[SeatDecisions]:
    """The subjects' latest analysed matches (for two, as partners) finished after
    ``after`` in which a person's turns were valued, newest first: at most the kind's
    window (``fairplay.thresholds``) of them. A match whose valued turns were all a bot's
    (or analysed before the signals' figures were stored) takes no place in it."""
    size = fairplay.thresholds(kind, settings.BALOOT).window
    matches = Match.objects.filter(analysis__status=AnalysisStatus.READY)
    for user_id in subjects:  # one join each: matches where every subject sat
        matches = matches.filter(seats__user_id=user_id)
    if after is not None:
        matches = matches.filter(finished_at__gt=after)
    # Some candidates are dropped below (a pair's matches as opponents, matches with nothing
    # valued), so read more than the window; a pair that mostly meets as opponents gets a
    # shorter window, not a slow query.
    candidates = list(
        matches.order_by("-finished_at", "-pk").values_list("pk", flat=True)[: 3 * size]
    )
    seats: dict[int, list[int]] = defaultdict(list)
    for match_id, index in Seat.objects.filter(
        match_id__in=candidates, user_id__in=subjects
    ).values_list("match_id", "index"):
        seats[match_id].append(index)
    # Partners: two seats of one team (for one account, its one seat).
    together = [m for m in candidates if len({i % 2 for i in seats[m]}) == 1]
    window: list[SeatDecisions] = []
    # Read a window's worth of analyses at a time, until the window is full.
    for start in range(0, len(together), size):
        chunk = together[start : start + size]
        analyses = {a.match_id: a for a in MatchAnalysis.objects.filter(match_id__in=chunk)}
        human = _human_actions(chunk)
        for match_id in chunk:
            found = _decisions_of(analyses[match_id], seats[match_id], human[match_id])
            if found.decisions:
                window.append(found)
        if len(window) >= size:
            break
    return window[:size]


def _test(kind: str, window: list[SeatDecisions]) -> fairplay.ShareTest:
    limits = fairplay.thresholds(kind, settings.BALOOT)
    if kind == FlagKind.SHARED_HANDS:
        hits, trials = fairplay.shared_hands_counts(
            (loss, partner) for w in window for loss, partner, _ in w.decisions
        )
    else:
        hits, trials = fairplay.engine_help_counts(
            (loss, trick) for w in window for loss, _, trick in w.decisions
        )
    return fairplay.share_test(
        kind,
        hits,
        trials,
        baseline=limits.baseline,
        alpha=limits.alpha,
        min_trials=limits.min_trials,
    )


def _check(kind: str, subjects: list[int], match: Match) -> Flag | None:
    """Test ``subjects`` for ``kind`` over their window; open a flag if the test says so.

    While a flag of this kind on these accounts is open, nothing more is opened (the queue
    has the question already); once it is settled, the next window starts after the newest
    match it held, so the same evidence never raises two flags and old matches never dilute
    new ones."""
    last = _flags_on(kind, subjects).first()
    if last is not None and last.status == ReportStatus.OPEN:
        return None
    window = _window(kind, subjects, _evidence_end(last))
    if not window:
        return None
    test = _test(kind, window)
    if not test.flagged:
        return None
    with transaction.atomic():
        # Locked in id order (as everywhere accounts are locked together): a second check of
        # the same accounts waits here, then finds the flag the first one opened.
        list(User.objects.select_for_update().filter(pk__in=subjects).order_by("pk"))
        newest = _flags_on(kind, subjects).first()
        if newest is not None and (last is None or newest.pk != last.pk):
            return None
        ids = [w.match_id for w in window]
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
    flags = []
    for kind, subjects in checks:
        try:
            flag = _check(kind, subjects, match)
        except DatabaseError:
            # One failed check does not skip the others; the next match of these accounts
            # tests them again over the same window.
            log.exception("fair-play check %s of accounts %s failed", kind, subjects)
            continue
        if flag is not None:
            flags.append(flag)
    return flags


def _on_analysis_ready(event: AnalysisReady) -> None:
    # After the analysis commits, in the worker that made it; a failure is logged and does
    # not undo the analysis (robust).
    transaction.on_commit(lambda: fairplay_check(event.match_id), robust=True)


def connect() -> None:
    events.subscribe(AnalysisReady, _on_analysis_ready)
