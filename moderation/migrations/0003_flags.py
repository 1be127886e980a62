"""Flags: the queue entries the system raises (one-sided results between the same accounts, issue
23), with their evidence; the moderation log learns to record settling them."""

from typing import Any

import django.db.models.deletion
from django.conf import settings
from django.contrib.auth.management import create_permissions
from django.db import migrations, models

# The moderators group (games/migrations/0004) views the flag queue and settles flags.
FLAG_PERMISSIONS = [
    ("flag", "view_flag"),
    ("flag", "change_flag"),
    ("flagevidence", "view_flagevidence"),
]


def moderators_see_flags(apps: Any, schema_editor: Any) -> None:
    # Permissions are normally created after migrate (post_migrate); make sure they exist now.
    config = apps.get_app_config("moderation")
    config.models_module = True
    create_permissions(config, apps=apps, verbosity=0)
    config.models_module = None
    group = apps.get_model("auth", "Group").objects.filter(name="moderators").first()
    if group is None:
        return
    Permission = apps.get_model("auth", "Permission")
    group.permissions.add(
        *(
            Permission.objects.get(
                content_type__app_label="moderation", content_type__model=model, codename=codename
            )
            for model, codename in FLAG_PERMISSIONS
        )
    )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0013_match_rated"),
        ("moderation", "0002_report_chat_message"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.AlterField(
            model_name="moderationaction",
            name="kind",
            field=models.CharField(
                choices=[
                    ("match_abort", "Match Abort"),
                    ("match_adjudicate", "Match Adjudicate"),
                    ("seat_to_bot", "Seat To Bot"),
                    ("deadline_extend", "Deadline Extend"),
                    ("report_dismiss", "Report Dismiss"),
                    ("report_uphold", "Report Uphold"),
                    ("sanction_apply", "Sanction Apply"),
                    ("sanction_lift", "Sanction Lift"),
                    ("flag_dismiss", "Flag Dismiss"),
                    ("flag_uphold", "Flag Uphold"),
                ],
                max_length=20,
            ),
        ),
        migrations.CreateModel(
            name="Flag",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("one_sided_results", "One-sided results between the same accounts")
                        ],
                        max_length=24,
                    ),
                ),
                ("ruleset", models.CharField(max_length=32)),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("open", "Open"),
                            ("dismissed", "Dismissed"),
                            ("upheld", "Upheld"),
                        ],
                        default="open",
                        max_length=10,
                    ),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("resolved_at", models.DateTimeField(blank=True, null=True)),
                (
                    "match",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="flags",
                        to="games.match",
                    ),
                ),
                (
                    "resolved_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["created_at", "pk"],
            },
        ),
        migrations.CreateModel(
            name="FlagEvidence",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "flag",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="evidence",
                        to="moderation.flag",
                    ),
                ),
                (
                    "loser",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "match",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="games.match",
                    ),
                ),
                (
                    "winner",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["flag", "match", "winner", "loser"],
            },
        ),
        migrations.AddIndex(
            model_name="flag",
            index=models.Index(fields=["status", "created_at"], name="flag_queue"),
        ),
        migrations.AddConstraint(
            model_name="flagevidence",
            constraint=models.UniqueConstraint(
                fields=("winner", "loser", "match"), name="flag_evidence_once_per_pair"
            ),
        ),
        migrations.RunPython(moderators_see_flags, migrations.RunPython.noop),
    ]
