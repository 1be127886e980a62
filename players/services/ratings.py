"""Ratings follow the matches: openskill (Plackett-Luce) per ruleset, updated inside the
transaction that finishes the match, so a result and the ratings it moves commit or roll
back together.

What counts (docs/decisions.md, docs/clients.md "Ratings"):
- the table is rated (``Match.rated``): chosen when it was created (casual by default, quick
  play rated, a rematch as its original) and confirmed when it started, which needs four
  humans at the table (bot levels are not calibrated players, and rating against a fixed bot
  rating would let anyone farm the easy bot) and opponents who have not used up their rated
  meetings of the day (``games.selectors.rated``; checked again here, for two tables started
  in the same instant);
- it finished with a winner (``winner_team``): by the rules, resignation, abandonment or
  adjudication. An aborted match is unrated;
- at least one round was played out (a complete round, not a redeal): a match resigned,
  abandoned or adjudicated before that rates no one, so four accounts cannot trade ratings
  by resigning at the first card (issue 23);
- the team that resigned or abandoned loses, since the match's ``winner_team`` is the other;
- a seat handed to a bot mid-match (timeouts, staff, a deleted account) still belongs to the
  human who started in it: the roster is taken when the match starts (``RatedSeat``).

Lock order: the finishing service holds the match row lock; this listener then locks the four
rating rows (and the week's gain rows) in user-id order. Every path that locks ratings goes
through here, always after one match lock and always in that order, so two matches finishing
at once with players in common wait for each other instead of deadlocking.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from datetime import date, datetime, timedelta

from django.conf import settings
from django.db.models import F
from django.utils import timezone
from openskill.models import PlackettLuce

from core import events
from games.events import MatchFinished, MatchStarted
from games.models import Match, MatchStatus, Round, RoundStatus, Seat
from games.selectors.rated import meetings_used_up
from players.events import OneSidedResults, Streak
from players.models import RatedSeat, Rating, RatingChange, WeeklyGain
from players.selectors.ratings import week_of

_MODEL = PlackettLuce()


def roster_record(event: MatchStarted) -> None:
    """A rated match started (four humans, ``games.services.state.match_start`` confirmed it):
    note who sits where."""
    if not Match.objects.filter(pk=event.match_id, rated=True).exists():
        return
    seats = list(
        Seat.objects.filter(match_id=event.match_id).values_list("index", "user_id", "bot")
    )
    if len(seats) != 4 or any(user_id is None or bot for _, user_id, bot in seats):
        return
    RatedSeat.objects.bulk_create(
        [
            RatedSeat(match_id=event.match_id, seat=index, user_id=user_id)
            for index, user_id, _ in seats
        ],
        ignore_conflicts=True,
    )


def ratings_update(event: MatchFinished) -> None:
    """A match ended: move the ratings of its four starting humans if it is rated."""
    if event.status != MatchStatus.FINISHED or event.winner_team not in (0, 1):
        return
    roster = dict(RatedSeat.objects.filter(match_id=event.match_id).values_list("seat", "user_id"))
    if len(roster) != 4 or RatingChange.objects.filter(match_id=event.match_id).exists():
        return
    ruleset, rated, started_at = Match.objects.values_list("ruleset", "rated", "started_at").get(
        pk=event.match_id
    )
    if not rated or started_at is None:
        return
    if not Round.objects.filter(match_id=event.match_id, status=RoundStatus.COMPLETE).exists():
        return  # ended before its first round was played out
    if meetings_used_up(match_id=event.match_id, started_at=started_at, roster=roster):
        return  # another table of these opponents started first and took the day's last one
    user_ids = sorted(roster.values())
    # Rows for first-timers, then every row locked in user-id order (see the module's note).
    Rating.objects.bulk_create(
        [Rating(user_id=uid, ruleset=ruleset) for uid in user_ids], ignore_conflicts=True
    )
    rows = {
        r.user_id: r
        for r in Rating.objects.select_for_update()
        .filter(ruleset=ruleset, user_id__in=user_ids)
        .order_by("user_id")
    }
    teams = [[roster[0], roster[2]], [roster[1], roster[3]]]
    before = [[_MODEL.rating(mu=rows[u].mu, sigma=rows[u].sigma) for u in team] for team in teams]
    ranks = [0.0 if team == event.winner_team else 1.0 for team in (0, 1)]
    after = _MODEL.rate(before, ranks=ranks)
    now = timezone.now()
    changes = []
    for team, members in enumerate(teams):
        for uid, new in zip(members, after[team], strict=True):
            row = rows[uid]
            changes.append(
                RatingChange(
                    user_id=uid,
                    match_id=event.match_id,
                    ruleset=ruleset,
                    won=team == event.winner_team,
                    mu_before=row.mu,
                    sigma_before=row.sigma,
                    ordinal_before=row.ordinal,
                    mu_after=new.mu,
                    sigma_after=new.sigma,
                    ordinal_after=new.ordinal(),
                    created_at=now,
                )
            )
            row.mu, row.sigma, row.ordinal = new.mu, new.sigma, new.ordinal()
            row.rated_matches += 1
            row.updated_at = now
    Rating.objects.bulk_update(
        [rows[u] for u in user_ids], ["mu", "sigma", "ordinal", "rated_matches", "updated_at"]
    )
    RatingChange.objects.bulk_create(changes)
    _weekly_add(ruleset, week_of(now), {c.user_id: c.delta for c in changes})
    streaks = one_sided_runs(
        ruleset=ruleset,
        started_at=started_at,
        winners=teams[event.winner_team],
        losers=teams[1 - event.winner_team],
    )
    if streaks:
        events.emit(OneSidedResults(match_id=event.match_id, ruleset=ruleset, streaks=streaks))


def one_sided_runs(
    *, ruleset: str, started_at: datetime, winners: list[int], losers: list[int]
) -> tuple[Streak, ...]:
    """Each winner-loser pair of a rated result whose rated meetings started within
    ``ONE_SIDED_FLAG_DAYS`` days up to ``started_at`` the winner won at least
    ``ONE_SIDED_FLAG_WINS`` of, and at least ``ONE_SIDED_FLAG_SHARE`` of them all: a share
    rather than an unbroken streak, so a farm that throws a match now and then is still seen.
    The run holds the winner's wins of the window. Opponents are told apart by the history
    itself: in a rated match teammates share ``won`` and opponents do not."""
    wins = settings.BALOOT["ONE_SIDED_FLAG_WINS"]
    share = settings.BALOOT["ONE_SIDED_FLAG_SHARE"]
    since = started_at - timedelta(days=settings.BALOOT["ONE_SIDED_FLAG_DAYS"])
    rows = (
        RatingChange.objects.filter(
            ruleset=ruleset,
            user_id__in=[*winners, *losers],
            match__started_at__gte=since,
            match__started_at__lte=started_at,
        )
        .order_by("-match__started_at", "-match_id")
        .values_list("match_id", "user_id", "won")
    )
    results: defaultdict[int, dict[int, bool]] = defaultdict(dict)
    for match_id, user_id, won in rows:  # newest match first (dicts keep that order)
        results[match_id][user_id] = won
    streaks = []
    for winner in sorted(winners):
        for loser in sorted(losers):
            met = _meetings(results, winner, loser)
            beaten = [match_id for match_id, winner_won in met if winner_won]
            if len(beaten) >= wins and len(beaten) >= share * len(met):
                ids = tuple(sorted(beaten))
                streaks.append(Streak(winner_id=winner, loser_id=loser, match_ids=ids))
    return tuple(streaks)


def _meetings(results: Mapping[int, Mapping[int, bool]], a: int, b: int) -> list[tuple[int, bool]]:
    """The matches of ``results`` (newest first) where ``a`` and ``b`` were opponents, with
    whether ``a`` won."""
    return [
        (match_id, sides[a])
        for match_id, sides in results.items()
        if a in sides and b in sides and sides[a] != sides[b]
    ]


def _weekly_add(ruleset: str, week: date, deltas: dict[int, float]) -> None:
    user_ids = sorted(deltas)
    WeeklyGain.objects.bulk_create(
        [WeeklyGain(user_id=uid, ruleset=ruleset, week=week) for uid in user_ids],
        ignore_conflicts=True,
    )
    for uid in user_ids:  # in user-id order, like the ratings
        WeeklyGain.objects.filter(user_id=uid, ruleset=ruleset, week=week).update(
            gained=F("gained") + deltas[uid], matches=F("matches") + 1
        )


def connect() -> None:
    events.subscribe(MatchStarted, roster_record)
    events.subscribe(MatchFinished, ratings_update)
