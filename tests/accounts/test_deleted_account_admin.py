"""The admin after a deletion: a moderator sees that an account was deleted (a column, a
filter, the date) and under which anonymous name, never who it was: the old username,
email and display name are nowhere, on the user's pages, its history or the moderation log."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.admin.models import CHANGE, LogEntry
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import User
from moderation import services as moderation
from tests.support.api import API
from tests.support.auth import login
from tests.support.moderation import moderators_group
from tests.support.players import PASSWORD, Player

OLD = ("amal.salem", "amal.salem@example.com", "Amal Salem")


def test_a_moderator_sees_a_deleted_account_and_not_who_it_was(
    make_player: Callable[..., Player], anon: APIClient
) -> None:
    mod = make_player()
    mod.user.is_staff = True
    mod.user.save(update_fields=["is_staff"])
    mod.user.groups.add(moderators_group())
    amal = make_player(OLD[0])
    User.objects.filter(pk=amal.id).update(email=OLD[1], display_name=OLD[2])
    amal.user.refresh_from_db()
    moderation.sanction_apply(moderator=mod.user, user_id=amal.id, kind="warn", reason="rude chat")
    LogEntry.objects.log_actions(user_id=mod.id, queryset=[amal.user], action_flag=CHANGE)
    assert login(anon, OLD[0], "not the password").status_code == 401  # an axes record
    staff = Client()
    staff.force_login(mod.user)
    # The admin's index lists the moderator's recent actions by the name the object had.
    assert OLD[2] in staff.get("/admin/").content.decode()

    response = amal.client.delete(f"{API}/me", {"password": PASSWORD}, format="json")
    assert response.status_code == 204, response.content

    anonymous = f"deleted-{amal.id}"
    pages = {
        "deleted accounts": "/admin/accounts/user/?deleted=yes",
        "user page": f"/admin/accounts/user/{amal.id}/change/",
        "history": f"/admin/accounts/user/{amal.id}/history/",
        "recent actions": "/admin/",
        "moderation log": "/admin/moderation/moderationaction/",
        "sanctions": "/admin/accounts/sanction/",
    }
    for name, url in pages.items():
        page = staff.get(url)
        assert page.status_code == 200, (name, page.status_code)
        text = page.content.decode()
        assert anonymous in text, name
        for old in OLD:
            assert old not in text, (name, old)
    living = staff.get("/admin/accounts/user/?deleted=no").content.decode()
    assert anonymous not in living and mod.user.username in living
    from axes.models import AccessAttempt

    assert not AccessAttempt.objects.filter(username=OLD[0]).exists()
