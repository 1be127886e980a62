"""Profile the move path in-process: where does a ``POST /moves`` spend its time?

    DATABASE_URL=postgres://... python -m bench.profile_moves [--moves 400] [--top 25]

Creates a throwaway database (Django's test-database machinery), seats four players, and plays
``--moves`` moves through the test client (GET the view as the seat to act, POST a legal
move), profiling only the POSTs with cProfile. Prints mean milliseconds per POST and per GET
and the top functions by cumulative time.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import time
from pathlib import Path
from typing import TYPE_CHECKING

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "baloot_site.settings")
os.environ.setdefault("DJANGO_PASSWORD_HASHERS", "django.contrib.auth.hashers.MD5PasswordHasher")
os.environ.setdefault("RATE_MOVES", "100000000/min")
os.environ.setdefault("RATE_READS", "100000000/min")

import django

django.setup()

from django.test.utils import setup_test_environment  # noqa: E402
from rest_framework.test import APIClient  # noqa: E402

if TYPE_CHECKING:
    from django.db.backends.base.base import BaseDatabaseWrapper


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()

    from django.db import connection

    setup_test_environment()
    connection.settings_dict.setdefault("TEST", {})["NAME"] = _scratch_name(connection)
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        _run(args.moves, args.top)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def _scratch_name(connection: BaseDatabaseWrapper) -> str:
    # Never the test suite's database: a test run may be using it right now.
    if connection.vendor == "sqlite":
        return str(Path(connection.settings_dict["NAME"]).with_name("profile-moves.sqlite3"))
    return "baloot_profile_moves"


def _run(moves: int, top: int) -> None:
    from accounts.services import user_register

    clients = []
    for seat in range(4):
        _, token = user_register(username=f"prof{seat}", password="x" * 12, display_name=f"P{seat}")
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
        clients.append(client)
    created = clients[0].post("/api/v1/matches", {"target": 10_000}, format="json").json()
    for seat in (1, 2, 3):
        clients[seat].post(
            f"/api/v1/matches/{created['id']}/join",
            {"seat": seat, "code": created["invite_code"]},
            format="json",
        )
    url = f"/api/v1/matches/{created['id']}"
    rng = random.Random(1)
    profiler = cProfile.Profile()
    post_time = get_time = 0.0
    seat = 0
    for _ in range(moves):
        start = time.perf_counter()
        view = clients[seat].get(url).json()
        get_time += time.perf_counter() - start
        seat = view["round"]["to_act"]
        view = clients[seat].get(url).json()
        move = rng.choice(view["round"]["legal_moves"])
        start = time.perf_counter()
        profiler.enable()
        response = clients[seat].post(
            f"{url}/moves", {**move, "expected_version": view["version"]}, format="json"
        )
        profiler.disable()
        post_time += time.perf_counter() - start
        assert response.status_code == 201, response.content
        seat = response.json()["round"]["to_act"]
    print(
        f"POST /moves: {post_time / moves * 1000:.2f} ms mean (profiled); "
        f"GET /matches/{{id}}: {get_time / moves * 1000:.2f} ms mean"
    )
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(top)


if __name__ == "__main__":
    main()
