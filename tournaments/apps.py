from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    label = "tournaments"

    def ready(self) -> None:
        # games emits MatchFinished inside the transaction that ends a match, and the turn
        # timeouts that make no-shows; tournaments sits above games and listens here.
        from tournaments import tasks  # registers the advance's enqueuer
        from tournaments.services import leaving, results

        results.connect()
        leaving.connect()
        del tasks
