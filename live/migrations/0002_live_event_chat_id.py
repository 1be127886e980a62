from typing import Any

from django.db import migrations, models
from django.db.models import F


def chat_notes_forward(apps: Any, schema_editor: Any) -> None:
    # Notes written before: a chat note kept its message's id in ``version``.
    LiveEvent = apps.get_model("live", "LiveEvent")
    LiveEvent.objects.filter(kind="chat").update(chat_id=F("version"), version=None)


def chat_notes_backward(apps: Any, schema_editor: Any) -> None:
    LiveEvent = apps.get_model("live", "LiveEvent")
    LiveEvent.objects.filter(kind="chat").update(version=F("chat_id"))


class Migration(migrations.Migration):
    """A chat note names its message in a field of its own (``chat_id``) and has no version:
    chat is not a move (live/relay.py)."""

    dependencies = [
        ("live", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="liveevent",
            name="chat_id",
            field=models.BigIntegerField(null=True),
        ),
        migrations.AlterField(
            model_name="liveevent",
            name="version",
            field=models.IntegerField(null=True),
        ),
        migrations.RunPython(chat_notes_forward, chat_notes_backward),
    ]
