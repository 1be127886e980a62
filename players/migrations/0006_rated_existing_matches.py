"""Existing matches keep the rating status they had before tables chose it (games/0013 adds
``Match.rated``, false).

Before, every table was rated when four humans sat at it when it started, which is exactly
when ``players`` kept its roster (``RatedSeat``): those matches are rated, finished or still
being played (the ones in progress end under the new rules: no rating without a round played
out). A table still waiting was created with that promise too, so it stays rated; it is
confirmed when it starts, like any rated table (a bot at it, or opponents past their day's
rated meetings, make it casual). Everything else (tables that started with a bot, aborted
before they started) was never rated and stays casual. Nothing is recomputed: ratings already
moved stay as they are."""

from typing import Any

from django.db import migrations


def rated_as_before(apps: Any, schema_editor: Any) -> None:
    Match = apps.get_model("games", "Match")
    RatedSeat = apps.get_model("players", "RatedSeat")
    Match.objects.filter(status="waiting").update(rated=True)
    rostered = RatedSeat.objects.values("match_id")
    Match.objects.filter(pk__in=rostered).update(rated=True)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0013_match_rated"),
        ("players", "0005_chat"),
    ]

    operations = [
        migrations.RunPython(rated_as_before, migrations.RunPython.noop, elidable=True),
    ]
