"""Report and ModerationAction, taken over from ``games`` (games/migrations/0009) in the
state only: the tables exist already (created by games/migrations/0003) and keep their names.

Their content types move too (``app_label`` games -> moderation), so the permissions that
point at them, and the ``moderators`` group holding those permissions
(games/migrations/0004), keep working with no new rows.
"""

import django.db.models.deletion
import rest_framework.utils.encoders
from django.conf import settings
from django.db import migrations, models

MOVED = ("report", "moderationaction")


def _relabel(apps, old: str, new: str) -> None:
    ContentType = apps.get_model("contenttypes", "ContentType")
    for model in MOVED:
        if ContentType.objects.filter(app_label=new, model=model).exists():
            continue  # already created under the new label (nothing points at the old one)
        ContentType.objects.filter(app_label=old, model=model).update(app_label=new)


def content_types_to_moderation(apps, schema_editor):
    _relabel(apps, "games", "moderation")


def content_types_to_games(apps, schema_editor):
    _relabel(apps, "moderation", "games")


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("accounts", "0002_sanction"),
        ("games", "0009_moderation_moves_to_its_own_app"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name="Report",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("seat", models.PositiveSmallIntegerField()),
                        (
                            "reason",
                            models.CharField(
                                choices=[
                                    ("cheating", "Cheating or collusion"),
                                    ("abusive_name", "Abusive name"),
                                    ("stalling", "Stalling or leaving"),
                                    ("other", "Other"),
                                ],
                                max_length=16,
                            ),
                        ),
                        ("comment", models.TextField(blank=True)),
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
                                related_name="reports",
                                to="games.match",
                            ),
                        ),
                        (
                            "reported",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="reports_received",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "reporter",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="reports_made",
                                to=settings.AUTH_USER_MODEL,
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
                        (
                            "sanction",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="reports",
                                to="accounts.sanction",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "games_report",
                        "ordering": ["created_at"],
                    },
                ),
                migrations.CreateModel(
                    name="ModerationAction",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "kind",
                            models.CharField(
                                choices=[
                                    ("match_abort", "Match Abort"),
                                    ("match_adjudicate", "Match Adjudicate"),
                                    ("seat_to_bot", "Seat To Bot"),
                                    ("deadline_extend", "Deadline Extend"),
                                    ("report_dismiss", "Report Dismiss"),
                                    ("report_uphold", "Report Uphold"),
                                    ("sanction_apply", "Sanction Apply"),
                                    ("sanction_lift", "Sanction Lift"),
                                ],
                                max_length=20,
                            ),
                        ),
                        ("reason", models.TextField()),
                        (
                            "changes",
                            models.JSONField(
                                default=dict, encoder=rest_framework.utils.encoders.JSONEncoder
                            ),
                        ),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        (
                            "match",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="moderation_log",
                                to="games.match",
                            ),
                        ),
                        (
                            "moderator",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="moderation_actions",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "sanction",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                to="accounts.sanction",
                            ),
                        ),
                        (
                            "target_user",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="moderation_log",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "report",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                to="moderation.report",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "moderation log entry",
                        "verbose_name_plural": "moderation log",
                        "db_table": "games_moderationaction",
                        "ordering": ["-created_at", "-pk"],
                    },
                ),
                migrations.AddIndex(
                    model_name="report",
                    index=models.Index(fields=["status", "created_at"], name="report_queue"),
                ),
                migrations.AddConstraint(
                    model_name="report",
                    constraint=models.UniqueConstraint(
                        condition=models.Q(("status", "open")),
                        fields=("reporter", "reported", "match"),
                        name="report_one_open",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="report",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("seat__lte", 3)), name="report_seat_0_3"
                    ),
                ),
                migrations.AddIndex(
                    model_name="moderationaction",
                    index=models.Index(fields=["match", "created_at"], name="modlog_match"),
                ),
            ],
        ),
        migrations.RunPython(content_types_to_moderation, content_types_to_games),
    ]
