"""The table of the ``push`` cache on the embedded defaults (settings.CACHES: a database
cache when the default cache is per process), holding push delivery's leases and circuit
breakers (live/push/limits.py). Made as ``manage.py createcachetable`` makes it."""

from django.core.management import call_command
from django.db import migrations

TABLE = "push_cache"


def create(apps, schema_editor):
    call_command("createcachetable", TABLE, database=schema_editor.connection.alias, verbosity=0)


def drop(apps, schema_editor):
    schema_editor.execute(f"DROP TABLE IF EXISTS {schema_editor.quote_name(TABLE)}")


class Migration(migrations.Migration):
    dependencies = [("push", "0001_initial")]

    operations = [migrations.RunPython(create, drop)]
