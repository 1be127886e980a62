"""The Celery app: bot turns and turn deadlines run here (games.tasks)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "baloot_site.settings")

app = Celery("baloot_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.on_after_configure.connect
def _make_filesystem_broker_dirs(sender: Celery, **kwargs: object) -> None:
    """The embedded default broker (kombu's filesystem transport) needs its folders."""
    from pathlib import Path

    options = sender.conf.broker_transport_options or {}
    for key in ("data_folder_in", "data_folder_out", "processed_folder", "control_folder"):
        if options.get(key):
            Path(options[key]).mkdir(parents=True, exist_ok=True)
