"""Moderation's models moved out of games in the migration state only: an existing database
keeps its tables, its rows and its moderators' rights."""

from __future__ import annotations

import importlib

import pytest
from django.contrib.auth.models import Group
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("games", "0008_sweep_index_without_status"), ("moderation", None)]


def _labels(apps: object) -> set[tuple[str, str]]:
    content_type = apps.get_model("contenttypes", "ContentType")  # type: ignore[attr-defined]
    return set(
        content_type.objects.filter(model__in=["report", "moderationaction"]).values_list(
            "app_label", "model"
        )
    )


@pytest.mark.slow
def test_an_existing_database_moves_without_touching_the_tables() -> None:
    executor = MigrationExecutor(connection)
    leaves = executor.loader.graph.leaf_nodes()
    old = executor.migrate(BEFORE)  # the database as it was before the split
    assert _labels(old.apps) == {("games", "report"), ("games", "moderationaction")}
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM games_report")  # the table is there
    # The group as games/migrations/0004 made it (an earlier test may have flushed it).
    importlib.import_module("games.migrations.0004_moderators_group").create_group(old.apps, None)

    executor = MigrationExecutor(connection)
    new = executor.migrate(leaves)
    assert _labels(new.apps) == {("moderation", "report"), ("moderation", "moderationaction")}
    group = Group.objects.get(name="moderators")
    rights = {f"{p.content_type.app_label}.{p.codename}" for p in group.permissions.all()}
    assert {"moderation.view_report", "moderation.change_report"} <= rights
    assert "moderation.view_moderationaction" in rights
