"""A database of a bench's own, set up before Django loads: SQLite in a temporary folder, or
the PostgreSQL database a ``--database-url`` names (emptied first); tasks go to an in-memory
broker, so only the bench plays."""

from __future__ import annotations

import os
import tempfile


def scratch_django(database_url: str | None, prefix: str) -> None:
    if database_url:
        os.environ["DATABASE_URL"] = database_url
    else:
        os.environ.pop("DATABASE_URL", None)
        os.environ["BALOOT_VAR_DIR"] = tempfile.mkdtemp(prefix=prefix)
    os.environ["CELERY_BROKER_URL"] = "memory://"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "baloot_site.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.core.management import call_command

    if database_url:
        call_command("flush", "--noinput", verbosity=0)
    call_command("migrate", "--noinput", verbosity=0)
