"""The moderators group (games/migrations/0004) sees tournaments, cancels them and disqualifies
or replaces teams; the rounds, entries and pairings change only through the services."""

from typing import Any

from django.contrib.auth.management import create_permissions
from django.db import migrations

TOURNAMENT_PERMISSIONS = [
    ("tournament", "view_tournament"),
    ("tournament", "add_tournament"),
    ("tournament", "change_tournament"),
    ("tournament", "moderate_tournament"),
    ("entry", "view_entry"),
    ("tournamentround", "view_tournamentround"),
    ("pairing", "view_pairing"),
]


def moderators_run_tournaments(apps: Any, schema_editor: Any) -> None:
    config = apps.get_app_config("tournaments")
    config.models_module = True
    create_permissions(config, apps=apps, verbosity=0)
    config.models_module = None
    group = apps.get_model("auth", "Group").objects.filter(name="moderators").first()
    if group is None:
        return
    Permission = apps.get_model("auth", "Permission")
    group.permissions.add(
        *(
            Permission.objects.get(
                content_type__app_label="tournaments",
                content_type__model=model,
                codename=codename,
            )
            for model, codename in TOURNAMENT_PERMISSIONS
        )
    )


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0001_initial"),
        ("games", "0004_moderators_group"),
    ]

    operations = [migrations.RunPython(moderators_run_tournaments, migrations.RunPython.noop)]
