from django.apps import AppConfig


class PlayersConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "players"
    label = "players"

    def ready(self) -> None:
        # games emits MatchStarted / MatchFinished inside its transaction; players sits above
        # games, so it subscribes here: ratings move in the transaction that ends the match.
        from players.services import blocks, departures, ratings

        ratings.connect()
        # A deleted account's follows, blocks, invitations, ticket and rematch proposals.
        departures.connect()
        # A join (or an invitation's accept) that would seat a blocked pair at one table.
        blocks.connect()
