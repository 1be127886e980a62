from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        from accounts.events import AccountDeleted
        from core import events

        # Registers the Celery side of scheduling (games.services.scheduling): the services
        # sit below the tasks and cannot import them.
        from games import tasks
        from games.events import MatchFinished
        from games.services import departures

        # A deleted account's seats are freed or handed to bots (games.services.departures).
        events.subscribe(AccountDeleted, departures.on_account_deleted)
        # A finished match is analysed on the analysis queue (games.services.analysis).
        events.subscribe(MatchFinished, tasks.on_match_finished)
