from django.db import migrations, models


class Migration(migrations.Migration):
    """The lease a hard bot's worker takes on a turn before it thinks (games/services/turns.py).

    A nullable column with no default: adding it rewrites no rows, on PostgreSQL or SQLite."""

    dependencies = [
        ("games", "0011_bot_level_hard"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="thinking_until",
            field=models.DateTimeField(blank=True, editable=False, null=True),
        ),
    ]
