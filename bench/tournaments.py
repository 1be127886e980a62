"""Tournaments at full size, played to the end by bots: a 256-team knockout and a 64-team,
6-round Swiss.

    python -m bench.tournaments [--target 152] [--formats knockout,swiss] [--database-url URL]

Each team is two accounts; every seat of every match is played by the easy bot (the away bot),
move by move through ``games.services.bot_turn_play``, in this process. Each round's last
result commits and asks for the advance, which runs at once and is timed: closing the round,
pairing the next (Swiss: standings and a search without rematches) and creating its matches
(a deal each). Prints, per format: matches, moves, the advance's seconds per round, the
slowest round close after its last result, and whether every match log is whole (replayed
against its snapshot). SQLite in a temporary folder by default; ``--database-url`` names a
PostgreSQL database to use instead (it is emptied first). Prints figures, asserts none.
"""

from __future__ import annotations

import argparse
import time
from datetime import timedelta

from bench.scratch_db import scratch_django


def _whole(match_id: int) -> bool:
    from django.db import transaction

    from games.models import Match, Move
    from games.replay import state_from_log

    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        seqs = list(Move.objects.filter(match=match).order_by("seq").values_list("seq", flat=True))
        return seqs == list(range(1, len(seqs) + 1)) and state_from_log(match) == match.load_state()


def run(fmt: str, teams: int, target: int, swiss_rounds: int | None) -> None:
    from django.utils import timezone

    from accounts.models import User
    from bench.tournament_play import RoundTimes, play_tournament, round_lags, timed_advancer
    from games.models import Move
    from tournaments.models import Entry, EntryStatus, Membership, Tournament
    from tournaments.services import registration, rounds

    times = RoundTimes()
    rounds.advancer_register(timed_advancer(rounds.tournament_advance, times))
    owner = User.objects.create_user(username=f"owner-{fmt}", password=None)
    tournament = registration.tournament_create(
        creator=owner,
        name=f"{fmt} of {teams}",
        format=fmt,
        public=False,
        capacity=teams,
        starts_at=timezone.now() + timedelta(hours=1),
        round_seconds=86400,
        target=target,
        swiss_rounds=swiss_rounds,
    )
    users = User.objects.bulk_create(
        [User(username=f"{fmt}-{i}", display_name=f"P{i}") for i in range(2 * teams)]
    )
    now = timezone.now()
    entries = Entry.objects.bulk_create(
        [
            Entry(
                tournament=tournament,
                player=users[2 * i],
                partner=users[2 * i + 1],
                status=EntryStatus.CONFIRMED,
                created_at=now,
                confirmed_at=now,
            )
            for i in range(teams)
        ]
    )
    Membership.objects.bulk_create(
        [
            Membership(tournament=tournament, user_id=uid, entry=e)
            for e in entries
            for uid in e.members
        ]
    )
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=now - timedelta(seconds=1))
    start = time.perf_counter()
    rounds.tournament_start(tournament.pk)
    times.advance[0] = time.perf_counter() - start  # the start: round 1's pairings and matches
    played = play_tournament(tournament.pk)
    elapsed = time.perf_counter() - start
    tournament.refresh_from_db()
    moves = Move.objects.filter(match_id__in=played).count()
    whole = sum(_whole(m) for m in played)
    lags = round_lags(tournament.pk)
    print(
        f"{fmt}, {teams} teams, target {target}: {tournament.status}, "
        f"{tournament.current_round} rounds, {len(played)} matches, {moves} moves, {elapsed:.0f} s"
    )
    last = tournament.current_round
    labels = {0: "start"} | {n: f"r{n}→r{n + 1}" for n in range(1, last)} | {last: f"r{last}→end"}
    print(
        "  advance per round (s): "
        + ", ".join(f"{labels[n]} {s:.2f}" for n, s in sorted(times.advance.items()))
    )
    print(f"  slowest round close after its last result: {max(lags.values()):.3f} s")
    print(f"  match logs whole: {whole} of {len(played)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--target", type=int, default=152)
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--knockout-teams", type=int, default=256)
    parser.add_argument("--swiss-teams", type=int, default=64)
    parser.add_argument("--swiss-rounds", type=int, default=6)
    parser.add_argument(
        "--formats", default="knockout,swiss", help="which to run (one process each on 2 cores)"
    )
    args = parser.parse_args()
    scratch_django(args.database_url, "bench-tournaments-")
    from games.services.scheduling import scheduler_register

    scheduler_register(lambda *args: None)  # the bench plays every turn itself
    formats = args.formats.split(",")
    if "knockout" in formats:
        run("knockout", args.knockout_teams, args.target, None)
    if "swiss" in formats:
        run("swiss", args.swiss_teams, args.target, args.swiss_rounds)


if __name__ == "__main__":
    main()
