from django.apps import AppConfig


class LiveConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "live"

    def ready(self) -> None:
        # The services emit games.events inside their transaction; live sits above games, so it
        # subscribes here, in every process that commits (web and worker alike).
        from live import listeners

        listeners.connect()
