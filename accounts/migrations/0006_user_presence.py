from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("accounts", "0005_email_verification")]

    operations = [
        migrations.AddField(
            model_name="user",
            name="show_presence",
            field=models.BooleanField(default=True),
        ),
        migrations.AddField(
            model_name="user",
            name="last_seen_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
