"""players/0006: the matches of an existing database keep the rating status they had before
tables chose it (games/0013 adds ``Match.rated``, false): rated where a four-human roster was
kept when the match started, and waiting tables (created when every four-human table was
rated); casual otherwise."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.models import Match

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("games", "0012_match_thinking_until"), ("players", "0005_chat")]


def test_existing_matches_keep_their_rating_status() -> None:
    executor = MigrationExecutor(connection)
    leaves = executor.loader.graph.leaf_nodes()
    old = executor.migrate(BEFORE).apps
    User = old.get_model("accounts", "User")
    OldMatch = old.get_model("games", "Match")
    RatedSeat = old.get_model("players", "RatedSeat")
    users = [User.objects.create(username=f"m{i}", display_name=f"M{i}") for i in range(4)]
    ids = {}
    for name, status in [
        ("rated_finished", "finished"),
        ("rated_active", "active"),
        ("with_a_bot", "finished"),
        ("aborted_early", "aborted"),
        ("waiting", "waiting"),
    ]:
        ids[name] = OldMatch.objects.create(created_by=users[0], status=status).pk
    for name in ("rated_finished", "rated_active"):
        for seat, user in enumerate(users):
            RatedSeat.objects.create(match_id=ids[name], seat=seat, user=user)

    MigrationExecutor(connection).migrate(leaves)
    rated = dict(Match.objects.values_list("pk", "rated"))
    assert {name: rated[pk] for name, pk in ids.items()} == {
        "rated_finished": True,
        "rated_active": True,
        "with_a_bot": False,
        "aborted_early": False,
        "waiting": True,
    }
