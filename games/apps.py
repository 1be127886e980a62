from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        # Registers the Celery side of scheduling (games.services.scheduling): the services
        # sit below the tasks and cannot import them.
        from games import tasks  # noqa: F401
