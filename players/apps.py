from django.apps import AppConfig


class PlayersConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "players"
    label = "players"

    def ready(self) -> None:
        # games emits MatchStarted / MatchFinished inside its transaction; players sits above
        # games, so it subscribes here: ratings move in the transaction that ends the match.
        from players.services import departures, ratings

        ratings.connect()
        # A deleted account's follows, blocks, invitations, ticket and rematch proposals.
        departures.connect()
