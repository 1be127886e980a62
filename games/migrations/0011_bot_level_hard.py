from django.db import migrations, models


class Migration(migrations.Migration):
    """The hard bot level (the column's values are checked by Django, not by the database)."""

    dependencies = [
        ("games", "0010_versioned_snapshots"),
    ]

    operations = [
        migrations.AlterField(
            model_name="seat",
            name="bot",
            field=models.CharField(
                blank=True,
                choices=[("easy", "Easy"), ("normal", "Normal"), ("hard", "Hard")],
                max_length=8,
            ),
        ),
    ]
