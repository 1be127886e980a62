from django.apps import AppConfig


class ModerationConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "moderation"
    label = "moderation"

    def ready(self) -> None:
        # players emits OneSidedResults inside the transaction that finishes a rated match;
        # moderation sits above players, so it subscribes here and raises the flag in it.
        from moderation.services import avatars, fairplay, flags

        flags.connect()
        # A finished match's analysis feeds the fair-play signals (moderation.fairplay).
        fairplay.connect()
        # A deleted account's pictures kept as reports' evidence go with it.
        avatars.connect()
