from django.apps import AppConfig


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"

    def ready(self) -> None:
        from accounts import (
            mail,
            schema,  # noqa: F401 - registers the schema extensions (bearer scheme, deletion)
            tasks,
        )

        # Mail leaves through the task (accounts.mail cannot import the task module).
        mail.enqueuer_register(tasks.mail_enqueue)
