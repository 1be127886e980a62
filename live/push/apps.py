from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PushConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "live.push"
    label = "push"
    verbose_name = _("Push notifications")

    def ready(self) -> None:
        # The outbox listens to the domain events the services emit inside their write
        # transaction (games.events, moderation.events): its rows commit with the change.
        from live.push import listeners, tasks  # noqa: F401

        listeners.connect()
