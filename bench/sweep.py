"""The deadline sweep's cost with many active matches, a few of them due.

    python -m bench.sweep [--active 10000] [--due 100] [--database-url URL]

Seeds ``--active`` active matches holding deadlines, of which ``--due`` are real four-bot
tables whose turn is overdue (the rest hold deadlines in the future), then prints:
1. finding the due matches among all the active ones (the sweep's query alone, averaged);
2. one sweep settling all the due matches (each decided by its bot and committed);
3. a sweep once nothing is due (the price every second costs the database);
and the query plan. SQLite in a temporary folder by default; ``--database-url`` names a
PostgreSQL database to use instead (it is emptied first). Tasks go to an in-memory broker, so
only the sweep plays. Prints figures, asserts none.
"""

from __future__ import annotations

import argparse
import time
from datetime import timedelta
from typing import TYPE_CHECKING

from bench.scratch_db import scratch_django

if TYPE_CHECKING:
    from django.db.models import QuerySet

    from games.models import Match


def _seed(active: int, due: int) -> None:
    from django.db import transaction
    from django.utils import timezone

    from accounts.models import User
    from games import services
    from games.models import Match, MatchStatus

    owner = User.objects.create_user(username="sweep-owner", password=None)
    due_ids = []
    for _ in range(due):
        match = services.match_create(creator=owner, bots=dict.fromkeys((1, 2, 3), "easy"))
        with transaction.atomic():
            services.seat_replace_with_bot(
                match=services.match_lock(match.pk), seat_index=0, level="easy"
            )
        due_ids.append(match.pk)
    now = timezone.now()
    Match.objects.filter(pk__in=due_ids).update(deadline=now - timedelta(seconds=5))
    Match.objects.bulk_create(
        [
            Match(
                created_by=owner,
                status=MatchStatus.ACTIVE,
                to_act=1,
                deadline=now + timedelta(minutes=10, seconds=i),
            )
            for i in range(active - due)
        ],
        batch_size=1000,
    )


def _due_query() -> QuerySet[Match, tuple[int, int]]:
    from django.utils import timezone

    from games.models import Match

    # The same query as games.tasks.sweep_deadlines.
    return (
        Match.objects.filter(deadline__lte=timezone.now())
        .order_by("deadline")
        .values_list("pk", "version")[:500]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--active", type=int, default=10_000)
    parser.add_argument("--due", type=int, default=100)
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args()
    scratch_django(args.database_url, "bench-sweep-")
    from games.models import Match
    from games.tasks import sweep_deadlines

    _seed(args.active, args.due)
    from django.db import connection

    with connection.cursor() as cursor:
        # Fresh planner statistics, as autovacuum (PostgreSQL) or `PRAGMA optimize` would give.
        cursor.execute("ANALYZE games_match")
    active = Match.objects.filter(status="active", deadline__isnull=False).count()
    found = len(list(_due_query()))
    runs = 50
    t = time.perf_counter()
    for _ in range(runs):
        list(_due_query())
    query_ms = (time.perf_counter() - t) / runs * 1000

    t = time.perf_counter()
    settled = sweep_deadlines()
    sweep_ms = (time.perf_counter() - t) * 1000

    t = time.perf_counter()
    for _ in range(runs):
        sweep_deadlines()
    idle_ms = (time.perf_counter() - t) / runs * 1000

    print(f"database: {connection.vendor}; {active} active matches holding deadlines")
    print(f"  finding the {found} due among them (the sweep's query): {query_ms:.2f} ms")
    print(
        f"  one sweep settling them: {settled} turns in {sweep_ms:.0f} ms "
        f"({sweep_ms / max(settled, 1):.2f} ms a turn, bot decision included)"
    )
    print(f"  one sweep with nothing due: {idle_ms:.2f} ms")
    print("  plan of the due query:")
    due = _due_query()
    plan = due.explain(analyze=True) if connection.vendor != "sqlite" else due.explain()
    for line in plan.splitlines():
        print(f"    {line}")


if __name__ == "__main__":
    main()
