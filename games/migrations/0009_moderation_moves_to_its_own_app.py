"""Report and ModerationAction move to the ``moderation`` app: removed from this app's state
only. Their tables (``games_report``, ``games_moderationaction``) stay as they are; the
moderation app's first migration takes them over in its state (moderation/migrations/0001)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_sweep_index_without_status"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="ModerationAction"),
                migrations.DeleteModel(name="Report"),
            ],
            database_operations=[],
        ),
    ]
