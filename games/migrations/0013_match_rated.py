"""``Match.rated``: whether a match counts for ratings (issue 23). New tables are casual
unless asked; the existing rows are set as they were rated by players/0006 (which reads the
rosters ``players`` kept), so this migration only adds the column."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0012_match_thinking_until"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="rated",
            field=models.BooleanField(default=False),
        ),
    ]
