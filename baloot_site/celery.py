"""The Celery app: bot turns and turn deadlines run here (games.tasks)."""

import logging
import os
import threading
import time

from celery import Celery
from celery.signals import celeryd_init, worker_shutting_down

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "baloot_site.settings")

app = Celery("baloot_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Task latency per queue for GET /metrics (publication -> start, and run time).
from baloot_site.task_metrics import connect_celery  # noqa: E402

connect_celery()

log = logging.getLogger(__name__)


# A warm shutdown waits for running tasks, which are all short (a bot's turn thinks for a
# fraction of a second). But when the pool's children receive the signal too (Ctrl-C in a
# terminal, a signal sent to the process group), billiard's pool finaliser can wait forever on a
# queue lock a killed child held. Past this grace the worker exits anyway: what it had taken is
# either redelivered (Redis, acks_late) or replayed by the deadline sweep.
SHUTDOWN_GRACE_SECONDS = 10.0


@worker_shutting_down.connect
def _bound_the_shutdown(**_kwargs: object) -> None:
    def force_exit() -> None:
        time.sleep(SHUTDOWN_GRACE_SECONDS)
        log.warning("worker still shutting down after %.0f s; exiting", SHUTDOWN_GRACE_SECONDS)
        os._exit(1)

    threading.Thread(target=force_exit, name="shutdown-bound", daemon=True).start()


@celeryd_init.connect
def _without_the_database_pool(**_kwargs: object) -> None:
    """A worker process runs one task at a time, and Celery closes its connection around
    every task (and, with a pool, the whole pool in each prefork child): a psycopg pool there
    would only add its threads. The worker connects as before pools; the web process and beat
    keep theirs (settings DATABASE_POOL)."""
    from django.conf import settings

    for database in settings.DATABASES.values():
        database.get("OPTIONS", {}).pop("pool", None)
