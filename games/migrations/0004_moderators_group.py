"""The ``moderators`` group with exactly the rights moderation needs (and nothing else).

View on every game model, the users and the moderation log; change on reports (dismiss,
uphold); add and change on sanctions (apply, lift); the custom ``moderate_match`` right for
match actions. No add/change/delete on matches, seats, rounds or moves (they change only
through games.services) and none at all on the log beyond viewing it.
"""

from django.contrib.auth.management import create_permissions
from django.db import migrations

MODERATOR_PERMISSIONS = [
    ("accounts", "user", "view_user"),
    ("accounts", "sanction", "view_sanction"),
    ("accounts", "sanction", "add_sanction"),
    ("accounts", "sanction", "change_sanction"),
    ("games", "match", "view_match"),
    ("games", "match", "moderate_match"),
    ("games", "seat", "view_seat"),
    ("games", "round", "view_round"),
    ("games", "move", "view_move"),
    ("games", "report", "view_report"),
    ("games", "report", "change_report"),
    ("games", "moderationaction", "view_moderationaction"),
]


def create_group(apps, schema_editor):
    # Permissions are normally created after migrate (post_migrate); make sure they exist now.
    for app_label in ("accounts", "games"):
        config = apps.get_app_config(app_label)
        config.models_module = True
        create_permissions(config, apps=apps, verbosity=0)
        config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name="moderators")
    perms = [
        Permission.objects.get(
            content_type__app_label=app, content_type__model=model, codename=codename
        )
        for app, model, codename in MODERATOR_PERMISSIONS
    ]
    group.permissions.set(perms)


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name="moderators").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("accounts", "0002_sanction"),
        ("games", "0003_moderation"),
    ]

    operations = [migrations.RunPython(create_group, remove_group)]
