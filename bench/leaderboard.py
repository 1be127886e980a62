"""Leaderboards at scale: 100,000 rated players and a week of rated matches, then the time of
page 1, a deep page and the caller's rank on both boards, with the database's plans; and the
list of live matches (``GET /matches/live``) with a page of 100 active public matches.

    python -m bench.leaderboard [--players 100000] [--matches 50000] [--repeat 20] [--reuse]
                                [--live-matches 100]
    make bench-leaderboard

Seeds a database of its own, never the configured one: on PostgreSQL (``DATABASE_URL`` set)
the database ``baloot_bench_leaderboard`` on the same server (or ``BENCH_DATABASE_URL``),
dropped and migrated afresh; else an SQLite file under var/. Times the selectors the view
calls and the view itself (in-process, no HTTP server), prints medians and p95s, then
``EXPLAIN (ANALYZE, BUFFERS)`` (SQLite: ``EXPLAIN QUERY PLAN``) for every query of each
operation. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from datetime import timedelta
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BENCH_DB = "baloot_bench_leaderboard"
BATCH = 5000


def _target_database() -> str:
    explicit = os.environ.get("BENCH_DATABASE_URL")
    if explicit:
        return explicit
    configured = os.environ.get("DATABASE_URL", "")
    if configured.startswith(("postgres://", "postgresql://")):
        return configured.rsplit("/", 1)[0] + "/" + BENCH_DB
    return f"sqlite:///{ROOT / 'var' / 'bench-leaderboard.sqlite3'}"


def _reset(url: str) -> None:
    if url.startswith("sqlite:///"):
        path = Path(url.removeprefix("sqlite:///"))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.unlink(missing_ok=True)
    else:
        import psycopg

        name = url.rsplit("/", 1)[1]
        base = url.rsplit("/", 1)[0].replace("postgres://", "postgresql://") + "/postgres"
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')
    env = {**os.environ, "DATABASE_URL": url}
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True
    )


def _seed(players: int, matches: int, rng: random.Random) -> None:
    from django.db import connection
    from django.utils import timezone

    from accounts.models import Sanction, User
    from games.models import Match, MatchStatus
    from players.models import Rating, RatingChange, WeeklyGain
    from players.selectors.ratings import week_of

    now = timezone.now()
    started = time.perf_counter()
    User.objects.bulk_create(
        (
            User(username=f"bench{i}", display_name=f"Bench {i}", password="!")
            for i in range(players)
        ),
        batch_size=BATCH,
    )
    ids = list(User.objects.order_by("pk").values_list("pk", flat=True))
    staff = ids[0]
    # 1% deleted accounts, 0.2% banned: left out of the boards.
    deleted = rng.sample(ids, players // 100)
    User.objects.filter(pk__in=deleted).update(deleted_at=now, is_active=False)
    Sanction.objects.bulk_create(
        Sanction(user_id=uid, kind="ban", reason="bench", created_by_id=staff)
        for uid in rng.sample(ids, players // 500)
    )
    ratings = []
    for uid in ids:
        sigma = rng.uniform(0.8, 8.3)
        mu = rng.gauss(25, 5)
        ratings.append(
            Rating(
                user_id=uid,
                ruleset="gamerules",
                mu=mu,
                sigma=sigma,
                ordinal=mu - 3 * sigma,
                rated_matches=rng.randint(1, 300),
            )
        )
    Rating.objects.bulk_create(ratings, batch_size=BATCH)
    # A week of rated matches: the last 7 days, this ISO week and the end of the last one.
    Match.objects.bulk_create(
        (
            Match(created_by_id=staff, status=MatchStatus.FINISHED, winner_team=0)
            for _ in range(matches)
        ),
        batch_size=BATCH,
    )
    match_ids = list(Match.objects.order_by("pk").values_list("pk", flat=True))
    gains: dict[tuple[int, Any], list[float]] = defaultdict(list)
    changes = []
    for mid in match_ids:
        at = now - timedelta(seconds=rng.uniform(0, 7 * 86400))
        for n, uid in enumerate(rng.sample(ids, 4)):
            delta = rng.uniform(0.2, 1.5) * (1 if n % 2 == 0 else -1)
            before = rng.uniform(0, 40)
            changes.append(
                RatingChange(
                    user_id=uid,
                    match_id=mid,
                    ruleset="gamerules",
                    won=n % 2 == 0,
                    mu_before=before + 10,
                    mu_after=before + 10 + delta,
                    sigma_before=3.3,
                    sigma_after=3.3,
                    ordinal_before=before,
                    ordinal_after=before + delta,
                    created_at=at,
                )
            )
            gains[(uid, week_of(at))].append(delta)
    RatingChange.objects.bulk_create(changes, batch_size=BATCH)
    WeeklyGain.objects.bulk_create(
        (
            WeeklyGain(user_id=uid, ruleset="gamerules", week=week, gained=sum(d), matches=len(d))
            for (uid, week), d in gains.items()
        ),
        batch_size=BATCH,
    )
    # What autovacuum would have done by now: statistics, and the visibility map that lets
    # a count be answered from the index alone.
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE" if connection.vendor == "postgresql" else "ANALYZE")
    this_week = sum(1 for (_, week) in gains if week == week_of(now))
    print(
        f"seeded {players} players, {len(changes)} rating changes over {matches} matches "
        f"({this_week} players with a match this ISO week) in {time.perf_counter() - started:.0f}s"
    )


def _time(label: str, op: Callable[[], Any], repeat: int) -> list[tuple[str, Any]]:
    """Run ``op`` ``repeat`` times; print the median and p95; return the queries of one run."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    op()  # warm
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        op()
        samples.append((time.perf_counter() - start) * 1000)
    samples.sort()
    p95 = samples[min(len(samples) - 1, int(len(samples) * 0.95))]
    with CaptureQueriesContext(connection) as captured:
        op()
    print(
        f"{label:<46} median {statistics.median(samples):7.2f} ms   p95 {p95:7.2f} ms   "
        f"{len(captured.captured_queries)} queries"
    )
    return [(label, q["sql"]) for q in captured.captured_queries]


def _explain(label: str, sql: str) -> None:
    from django.db import connection

    vendor = connection.vendor
    prefix = "EXPLAIN (ANALYZE, BUFFERS) " if vendor == "postgresql" else "EXPLAIN QUERY PLAN "
    with connection.cursor() as cursor:
        cursor.execute(prefix + sql)
        rows = cursor.fetchall()
    print(f"\n--- {label}\n{sql}\n")
    for row in rows:
        print("   ", row[0] if vendor == "postgresql" else row[-1])


def _measure(repeat: int, rng: random.Random) -> None:
    from rest_framework.test import APIRequestFactory, force_authenticate

    from accounts.models import User
    from players.api.leaderboards import LeaderboardView, _cursor_encode
    from players.selectors import leaderboards as boards

    view = LeaderboardView.as_view()
    factory = APIRequestFactory()
    queries: list[tuple[str, str]] = []
    # The milestones beat keeps (every LEADERBOARD_MARKS_SECONDS) that ranks count from.
    started = time.perf_counter()
    written = boards.marks_refresh()
    print(f"marks_refresh: {written} milestones in {time.perf_counter() - started:.2f}s")
    for period in boards.PERIODS:
        board = boards.board_for("gamerules", period)
        total = boards.listed(board).count()
        deep_row = boards.listed(board)[total // 2]
        deep = (getattr(deep_row, board.value_field), deep_row.user_id)
        caller = User.objects.get(pk=deep_row.user_id)
        print(f"\n{period}: {total} listed players; deep page after rank {total // 2 + 1}")

        def page(after: tuple[float, int] | None = None, board: Any = board) -> list[Any]:
            rows = boards.listed(board)
            if after is not None:
                rows = rows.filter(board.after(*after))
            return boards.page_entries(board, list(rows[:100]))

        queries += _time(f"{period}: page 1 (100 rows, ranked)", page, repeat)
        queries += _time(f"{period}: deep page (100 rows, ranked)", partial(page, deep), repeat)
        queries += _time(
            f"{period}: caller's rank", partial(boards.caller_entry, board, caller), repeat
        )

        def http(cursor: str | None = None, caller: Any = caller, period: str = period) -> None:
            query = f"?period={period}" + (f"&cursor={cursor}" if cursor else "")
            request = factory.get(f"/api/v1/leaderboards/gamerules{query}", SERVER_NAME="localhost")
            force_authenticate(request, user=caller)
            response = view(request, ruleset="gamerules")
            assert response.status_code == 200, response.data
            response.render()

        cursor = _cursor_encode(*deep)
        _time(f"{period}: whole view, page 1 + your rank", http, repeat)
        _time(f"{period}: whole view, deep page + your rank", partial(http, cursor), repeat)
    print("\n=== plans (one run of each operation)")
    for label, sql in queries:
        _explain(label, sql)


def _seed_live(count: int, rng: random.Random) -> None:
    """``count`` active public four-human tables, each played (random legal moves, through the
    move service) to a random point of its first or second round, most of them mid-trick so
    that a spectator's cut lies behind the live state."""
    from django.db import transaction

    from accounts.models import User
    from games import engine, services
    from games.engine.selfplay import random_choose
    from games.models import Match, Visibility
    from games.services.matches import match_create_table

    started = time.perf_counter()
    User.objects.bulk_create(
        User(username=f"live{i}", display_name=f"Live {i}", password="!") for i in range(4 * count)
    )
    users = list(User.objects.filter(username__startswith="live").order_by("pk"))
    for i in range(count):
        table = match_create_table(
            seats=users[4 * i : 4 * i + 4], visibility=Visibility.PUBLIC, rated=False
        )
        for _ in range(rng.randrange(4, 60)):  # a round is about 40 moves
            with transaction.atomic():
                match = Match.objects.select_for_update().get(pk=table.pk)
                state = match.load_state()
                seat_index = None if state is None else engine.to_act(state)
                if state is None or seat_index is None:
                    break
                move = random_choose(engine.observation(state, seat_index), rng)
                seat = match.seats.get(index=seat_index)
                services.move_make(match=match, seat=seat, move=move, expected_version=None)
    print(f"seeded {count} live matches in {time.perf_counter() - started:.0f}s")


def _measure_live(repeat: int) -> None:
    """``GET /matches/live``, a page of 100 as a spectator sees it, in process; next to it the
    path it replaced (the outsider's whole view of each row, that is a replay of the round to
    the cut and one query, per row) on the same rows."""
    from rest_framework.test import APIRequestFactory, force_authenticate

    from accounts.models import User
    from games import selectors
    from games.api.matches import _LIVE_ROW
    from games.api.views import MatchViewSet

    factory = APIRequestFactory()
    view = MatchViewSet.as_view({"get": "live"})
    spectator, _ = User.objects.get_or_create(
        username="bench-spectator", defaults={"display_name": "S", "password": "!"}
    )
    listed = selectors.live_matches().count()
    print(f"\nlive: {listed} active public matches")

    def http() -> None:
        request = factory.get("/api/v1/matches/live?page_size=100", SERVER_NAME="localhost")
        force_authenticate(request, user=spectator)
        response = view(request)
        assert response.status_code == 200, response.data
        assert len(response.data["results"]) == min(100, listed)
        response.render()

    def per_row() -> None:
        page = list(selectors.live_matches().prefetch_related("seats__user")[:100])
        for match in page:
            seats = list(match.seats.all())
            row = selectors.MatchRow(selectors.viewed_match(match, None).header, seats, None, False)
            _LIVE_ROW.to_representation(row)

    _time("live: whole view, a page of 100", http, repeat)
    _time("live: the replaced path (a replayed cut a row)", per_row, repeat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--matches", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument(
        "--reuse", action="store_true", help="Measure the database seeded by an earlier run."
    )
    parser.add_argument("--live-matches", type=int, default=100)
    parser.add_argument(
        "--live-only", action="store_true", help="Only the live-matches list (after --reuse)."
    )
    args = parser.parse_args()
    url = _target_database()
    print(f"database: {url}")
    if not args.reuse:
        _reset(url)
    os.environ["DATABASE_URL"] = url
    # The live tables' moves queue their follow-ups (push, the inbox) after commit: to nowhere.
    os.environ["CELERY_BROKER_URL"] = "memory://"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "baloot_site.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    rng = random.Random(args.seed)
    if not args.reuse:
        _seed(args.players, args.matches, rng)
    if not args.live_only:
        _measure(args.repeat, rng)
    from games.selectors import live_matches

    if args.live_matches and not live_matches().exists():
        _seed_live(args.live_matches, rng)
    if args.live_matches:
        _measure_live(args.repeat)


if __name__ == "__main__":
    main()
