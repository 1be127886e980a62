"""Drills (issue "Prove it under fire"): which drills exist where (their helpers are in
tests/support/drills.py).

The concurrency drill and the worker-kill drill run everywhere. The service-restart drills need
the real services and are not even collected on the embedded defaults, because there is nothing
to restart there (SQLite is a file in this process; the embedded broker is a file):

- ``test_redis_restart.py`` only when ``CELERY_BROKER_URL`` is a Redis URL;
- ``test_postgres_restart.py`` only when ``DATABASE_URL`` points at PostgreSQL.

Both restart the local services with the commands CI uses (``.ci/run``) and always start them
again in a ``finally``.
"""

from __future__ import annotations

import os

from django.conf import settings

collect_ignore: list[str] = []
if not settings.CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    collect_ignore.append("test_redis_restart.py")
if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
    collect_ignore.append("test_postgres_restart.py")
if os.environ.get("DATABASE_URL") or os.environ.get("CELERY_BROKER_URL"):
    # A drill of what `make run` starts on the embedded defaults.
    collect_ignore.append("test_make_run_chaos.py")
